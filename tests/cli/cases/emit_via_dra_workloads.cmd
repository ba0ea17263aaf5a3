emit workloads --manifests $FIXTURES/emit/via-dra-manifests.yaml $FIXTURES/emit/via-dra.yaml
