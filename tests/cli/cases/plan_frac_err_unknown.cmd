plan $FIXTURES/fractions/err-unknown.yaml
