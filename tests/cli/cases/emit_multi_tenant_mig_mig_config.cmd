emit mig-config $REPO/examples/multi-tenant-mig.yaml
