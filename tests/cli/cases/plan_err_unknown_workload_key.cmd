plan $FIXTURES/workloads/unknown_workload_key.yaml
