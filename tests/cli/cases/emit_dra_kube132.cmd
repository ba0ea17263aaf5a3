emit dra --kube-version 1.32 $REPO/examples/multi-tenant-mig.yaml --dra
