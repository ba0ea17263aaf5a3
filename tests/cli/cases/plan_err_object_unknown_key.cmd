plan $FIXTURES/workloads/object_unknown_key.yaml
