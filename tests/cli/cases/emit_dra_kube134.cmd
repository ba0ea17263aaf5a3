emit dra --kube-version 1.34 $REPO/examples/multi-tenant-mig.yaml --dra
