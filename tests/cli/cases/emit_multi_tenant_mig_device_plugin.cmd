emit device-plugin $REPO/examples/multi-tenant-mig.yaml
