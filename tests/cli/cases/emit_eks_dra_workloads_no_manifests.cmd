emit workloads $FIXTURES/emit/eks-team-dra.yaml
