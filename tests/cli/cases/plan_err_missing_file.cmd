plan $FIXTURES/workloads/missing.yaml
