plan $FIXTURES/workloads/version_quoted.yaml
