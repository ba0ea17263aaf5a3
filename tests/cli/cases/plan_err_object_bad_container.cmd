plan $FIXTURES/workloads/object_bad_container.yaml
