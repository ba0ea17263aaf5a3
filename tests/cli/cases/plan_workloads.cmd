plan $REPO/examples/workloads.yaml
