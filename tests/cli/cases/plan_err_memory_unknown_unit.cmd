plan $FIXTURES/workloads/memory_unknown_unit.yaml
