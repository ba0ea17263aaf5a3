plan $FIXTURES/workloads/workloads_mapping.yaml
