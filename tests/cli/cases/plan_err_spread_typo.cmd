plan $FIXTURES/workloads/spread_typo.yaml
