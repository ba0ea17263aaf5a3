plan $FIXTURES/workloads/replicas_quoted.yaml
