plan $FIXTURES/workloads/host_memory_too_big.yaml
