plan $FIXTURES/fractions/uneven-dra.yaml --format json
