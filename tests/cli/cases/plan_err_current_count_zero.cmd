plan $FIXTURES/workloads/current_count_zero.yaml
