cost --nodes $REPO/tests/fixtures/cost/nodes.json
# A cluster needs its pods.
