emit dra --kube-version 1.33 --dra-api v1 $REPO/examples/multi-tenant-mig.yaml --dra
