plan $FIXTURES/workloads/deep_nesting.yaml
