emit dra --dra $REPO/examples/spot.yaml
