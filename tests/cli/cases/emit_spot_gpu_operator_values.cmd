emit gpu-operator-values $REPO/examples/spot.yaml
