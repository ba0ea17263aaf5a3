lint --gpu A100-SXM4-40GB $REPO/tests/fixtures/lint/nvidia/mig-parted-examples-config.yaml
