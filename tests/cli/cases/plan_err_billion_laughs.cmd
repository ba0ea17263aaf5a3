plan $FIXTURES/workloads/billion_laughs.yaml
