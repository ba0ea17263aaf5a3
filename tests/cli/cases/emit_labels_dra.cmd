emit labels $REPO/examples/multi-tenant-mig.yaml --dra
