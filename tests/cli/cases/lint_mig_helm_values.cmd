lint $REPO/tests/fixtures/lint/nvidia/nvidia-docs-mig-cm-values.helm.yaml
