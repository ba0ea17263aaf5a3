plan $FIXTURES/workloads/compute_zero.yaml
