plan $FIXTURES/fractions/err-twice.yaml
