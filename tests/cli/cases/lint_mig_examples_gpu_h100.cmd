lint --gpu H100-SXM5-80GB $REPO/tests/fixtures/lint/nvidia/mig-parted-examples-config.yaml
