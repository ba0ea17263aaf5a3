cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --gpu-weight 120
# The GPUs' weight is a percentage.
