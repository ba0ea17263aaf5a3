emit dra-driver $FIXTURES/emit/eks-team-dra.yaml
