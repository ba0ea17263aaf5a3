plan $FIXTURES/fractions/uneven-dra.yaml
