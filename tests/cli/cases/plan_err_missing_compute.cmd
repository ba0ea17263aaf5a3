plan $FIXTURES/workloads/missing_compute.yaml
