plan $FIXTURES/memory/too-big.yaml
