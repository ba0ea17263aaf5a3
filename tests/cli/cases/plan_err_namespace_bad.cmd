plan $FIXTURES/workloads/namespace_bad.yaml
