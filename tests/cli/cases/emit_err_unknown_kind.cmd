emit bogus $REPO/examples/workloads.yaml
