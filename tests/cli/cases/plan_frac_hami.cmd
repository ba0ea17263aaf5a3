plan $FIXTURES/fractions/uneven.yaml
