plan $FIXTURES/workloads/many_keys.yaml
