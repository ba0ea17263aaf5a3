plan $FIXTURES/truth/current-partial.yaml
