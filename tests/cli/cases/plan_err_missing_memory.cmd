plan $FIXTURES/workloads/missing_memory.yaml
