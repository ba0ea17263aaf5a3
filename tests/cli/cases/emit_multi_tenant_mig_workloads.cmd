emit workloads $REPO/examples/multi-tenant-mig.yaml
