emit gpu-operator-values $REPO/examples/workloads.yaml
