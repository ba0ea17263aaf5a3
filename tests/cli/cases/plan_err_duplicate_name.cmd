plan $FIXTURES/workloads/duplicate_name.yaml
