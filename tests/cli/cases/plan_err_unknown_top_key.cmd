plan $FIXTURES/workloads/unknown_top_key.yaml
