plan $REPO/examples/spot.yaml --threads 1
