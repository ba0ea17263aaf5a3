plan $FIXTURES/fractions/many.yaml
