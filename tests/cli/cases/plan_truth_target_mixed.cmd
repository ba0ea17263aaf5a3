plan $FIXTURES/truth/target-mixed.yaml
