plan $FIXTURES/workloads/directory.yaml
