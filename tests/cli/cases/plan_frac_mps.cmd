plan $FIXTURES/fractions/heavy.yaml
