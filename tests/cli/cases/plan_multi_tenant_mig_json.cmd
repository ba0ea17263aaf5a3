plan --format json $REPO/examples/multi-tenant-mig.yaml
