plan $FIXTURES/truth/nothing-shared.yaml
