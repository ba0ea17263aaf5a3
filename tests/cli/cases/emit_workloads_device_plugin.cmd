emit device-plugin $REPO/examples/workloads.yaml
