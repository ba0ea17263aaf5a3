emit dra --dra $REPO/examples/mixed-fleet.yaml
