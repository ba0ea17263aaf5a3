plan $FIXTURES/why/spread.yaml
