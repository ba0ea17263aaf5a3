emit dra --kube-version 1.31 $REPO/examples/multi-tenant-mig.yaml --dra
