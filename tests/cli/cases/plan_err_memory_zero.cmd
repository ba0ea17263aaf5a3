plan $FIXTURES/workloads/memory_zero.yaml
