plan $FIXTURES/workloads/object_kind_typo.yaml
