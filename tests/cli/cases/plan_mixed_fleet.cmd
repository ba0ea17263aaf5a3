plan $REPO/examples/mixed-fleet.yaml
