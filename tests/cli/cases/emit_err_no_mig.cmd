emit mig-config $REPO/examples/workloads.yaml
