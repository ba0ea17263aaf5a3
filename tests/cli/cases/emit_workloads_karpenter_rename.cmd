emit karpenter --rename-shared $REPO/examples/workloads.yaml
