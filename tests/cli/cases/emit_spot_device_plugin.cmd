emit device-plugin $REPO/examples/spot.yaml
