plan $FIXTURES/workloads/object_bad_name.yaml
