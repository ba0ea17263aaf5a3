plan $FIXTURES/workloads/object_bad_namespace.yaml
