plan $FIXTURES/fractions/percent.yaml
