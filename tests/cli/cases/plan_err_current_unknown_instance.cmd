plan $FIXTURES/workloads/current_unknown_instance.yaml
