plan --format json $REPO/examples/workloads.yaml
