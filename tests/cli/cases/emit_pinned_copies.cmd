emit workloads --placement pinned --manifests $FIXTURES/emit/pinned-manifests.yaml $FIXTURES/emit/pinned.yaml
