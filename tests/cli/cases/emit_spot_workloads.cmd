emit workloads $REPO/examples/spot.yaml
