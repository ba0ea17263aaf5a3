plan $FIXTURES/why/eks-team-spot.yaml
