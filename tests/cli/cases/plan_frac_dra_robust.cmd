plan $FIXTURES/fractions/dra-robust.yaml
