plan $FIXTURES/workloads/replicas_zero.yaml
