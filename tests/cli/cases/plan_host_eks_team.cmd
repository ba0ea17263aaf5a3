plan $REPO/tests/fixtures/host/eks-team-host.yaml
