emit labels $REPO/examples/mixed-fleet.yaml
