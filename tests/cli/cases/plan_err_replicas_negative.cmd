plan $FIXTURES/workloads/replicas_negative.yaml
