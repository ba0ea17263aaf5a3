plan $FIXTURES/workloads/version_2.yaml
