emit device-plugin $FIXTURES/emit/eks-team-dra.yaml
