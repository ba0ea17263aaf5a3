plan --format json $FIXTURES/why/eks-team-spot.yaml
