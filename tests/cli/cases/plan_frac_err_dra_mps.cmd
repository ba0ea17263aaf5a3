plan $FIXTURES/fractions/err-dra-mps.yaml
