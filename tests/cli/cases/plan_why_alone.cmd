plan $FIXTURES/why/alone.yaml
