plan $FIXTURES/workloads/host_memory_zero.yaml
