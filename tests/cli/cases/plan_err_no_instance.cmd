plan $FIXTURES/workloads/no_instance.yaml
