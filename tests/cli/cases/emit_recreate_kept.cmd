emit workloads --manifests $FIXTURES/emit/recreate-manifests.yaml $FIXTURES/emit/recreate.yaml
