plan $FIXTURES/truth/eks-team.yaml
