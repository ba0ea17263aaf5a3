lint $REPO/tests/fixtures/lint/validate/k8s/good/mig-pod.yaml
