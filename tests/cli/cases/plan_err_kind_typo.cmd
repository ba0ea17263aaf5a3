plan $FIXTURES/workloads/kind_typo.yaml
