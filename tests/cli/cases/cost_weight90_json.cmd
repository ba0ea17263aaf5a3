cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --gpu-weight 90 --format json
# AWS's 9:1: 90% of a node's price by GPU share, the rest to the node's pods; idle only of the 90%.
