plan $FIXTURES/multigpu/bad-value.yaml
