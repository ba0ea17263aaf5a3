plan $FIXTURES/fractions/err-scalar.yaml
