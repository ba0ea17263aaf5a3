emit labels $REPO/examples/spot.yaml
