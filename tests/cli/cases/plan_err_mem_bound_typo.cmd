plan $FIXTURES/workloads/mem_bound_typo.yaml
