plan $FIXTURES/fractions/dra-pinned.yaml
