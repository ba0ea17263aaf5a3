plan $FIXTURES/workloads/compute_abc.yaml
