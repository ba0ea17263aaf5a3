emit workloads --placement pinned $FIXTURES/emit/pinned.yaml
