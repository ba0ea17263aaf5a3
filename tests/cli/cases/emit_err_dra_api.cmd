emit dra --dra --dra-api v2 $REPO/examples/workloads.yaml
