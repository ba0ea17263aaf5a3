plan $FIXTURES/workloads/empty.yaml
