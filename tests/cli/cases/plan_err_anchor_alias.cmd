plan $FIXTURES/workloads/anchor_alias.yaml
