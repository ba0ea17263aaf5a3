plan $FIXTURES/workloads/object_not_map.yaml
