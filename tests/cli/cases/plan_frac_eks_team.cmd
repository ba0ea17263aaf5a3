plan $FIXTURES/fractions/eks-team.yaml
