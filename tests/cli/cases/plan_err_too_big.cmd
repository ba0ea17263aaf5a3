plan $FIXTURES/workloads/too_big.yaml
