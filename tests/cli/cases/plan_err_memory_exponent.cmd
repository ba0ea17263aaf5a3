plan $FIXTURES/workloads/memory_exponent.yaml
