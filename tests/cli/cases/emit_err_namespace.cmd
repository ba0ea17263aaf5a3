emit device-plugin $REPO/examples/workloads.yaml --namespace "My Namespace"
