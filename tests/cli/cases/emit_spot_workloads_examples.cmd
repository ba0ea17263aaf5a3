emit workloads --example-deployments $REPO/examples/spot.yaml
