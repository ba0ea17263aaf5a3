plan $FIXTURES/workloads/cpu_finer.yaml
