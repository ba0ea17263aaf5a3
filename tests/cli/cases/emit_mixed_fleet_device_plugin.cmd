emit device-plugin $REPO/examples/mixed-fleet.yaml
