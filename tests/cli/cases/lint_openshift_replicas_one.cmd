lint $REPO/tests/fixtures/lint/nvidia/nvidia-docs-openshift-device-plugin-config.yaml
