emit gpu-operator-values $FIXTURES/emit/eks-team-dra.yaml
