emit dra $FIXTURES/emit/eks-team-dra.yaml
