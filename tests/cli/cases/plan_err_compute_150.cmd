plan $FIXTURES/workloads/compute_150.yaml
