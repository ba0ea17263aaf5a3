emit gpu-operator-values $REPO/examples/multi-tenant-mig.yaml
