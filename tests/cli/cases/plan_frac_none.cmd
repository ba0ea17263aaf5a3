plan $FIXTURES/fractions/uneven-none.yaml
