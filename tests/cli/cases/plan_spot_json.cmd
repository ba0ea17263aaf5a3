plan --format json $REPO/examples/spot.yaml
