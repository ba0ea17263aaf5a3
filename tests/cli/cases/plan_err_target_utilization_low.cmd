plan $FIXTURES/workloads/target_utilization_low.yaml
