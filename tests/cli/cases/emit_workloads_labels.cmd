emit labels $REPO/examples/workloads.yaml
