plan $FIXTURES/truth/before.yaml
