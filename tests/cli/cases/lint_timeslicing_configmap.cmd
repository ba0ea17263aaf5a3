lint $REPO/tests/fixtures/lint/nvidia/nvidia-docs-time-slicing-config-all.yaml
