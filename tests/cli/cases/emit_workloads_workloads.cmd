emit workloads $REPO/examples/workloads.yaml
