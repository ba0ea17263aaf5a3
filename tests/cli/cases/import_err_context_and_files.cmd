import --context prod --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json
# kubectl reads the nodes and pods of --context: files as well are refused.
