plan $FIXTURES/workloads/list_root.yaml
