lint $REPO/tests/fixtures/lint/nvidia/k8s-device-plugin-readme-mps-x10.yaml
