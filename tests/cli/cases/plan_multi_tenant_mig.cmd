plan $REPO/examples/multi-tenant-mig.yaml
