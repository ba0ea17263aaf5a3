plan --format json $REPO/examples/mixed-fleet.yaml
