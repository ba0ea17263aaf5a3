plan $FIXTURES/workloads/memory_no_unit.yaml
