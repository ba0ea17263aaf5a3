plan $FIXTURES/workloads/placement_typo.yaml
