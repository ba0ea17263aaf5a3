emit dra --kube-version 1.36 $REPO/examples/multi-tenant-mig.yaml --dra
