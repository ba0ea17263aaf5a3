emit dra --dra $REPO/examples/multi-tenant-mig.yaml
