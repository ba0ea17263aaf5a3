plan $REPO/examples/spot.yaml
