plan $FIXTURES/workloads/duplicate_key.yaml
