emit workloads --example-deployments $REPO/examples/multi-tenant-mig.yaml
