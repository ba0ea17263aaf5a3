plan $FIXTURES/fractions/uneven.yaml --format json
