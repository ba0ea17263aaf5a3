plan $FIXTURES/workloads/workloads_empty.yaml
