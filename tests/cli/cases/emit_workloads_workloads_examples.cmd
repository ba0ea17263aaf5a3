emit workloads --example-deployments $REPO/examples/workloads.yaml
