emit gpu-operator-values $REPO/examples/mixed-fleet.yaml
