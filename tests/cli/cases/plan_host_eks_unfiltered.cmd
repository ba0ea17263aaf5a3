plan $REPO/tests/fixtures/host/eks-team-unfiltered.yaml
