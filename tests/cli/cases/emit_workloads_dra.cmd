emit dra --dra $REPO/examples/workloads.yaml
