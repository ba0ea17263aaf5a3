plan $FIXTURES/memory/eks-team.yaml
