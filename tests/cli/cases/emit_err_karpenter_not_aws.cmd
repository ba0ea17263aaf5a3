emit karpenter $REPO/examples/spot.yaml
