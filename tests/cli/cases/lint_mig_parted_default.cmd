lint $REPO/tests/fixtures/lint/nvidia/mig-parted-config-default.yaml
