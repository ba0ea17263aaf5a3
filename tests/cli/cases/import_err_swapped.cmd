import --nodes $REPO/tests/fixtures/import/pods.json --pods $REPO/tests/fixtures/import/nodes.json
# The pod list given as the node list.
