import --nodes $REPO/tests/fixtures/import/nodes.json --nodes $REPO/tests/fixtures/import/node-h100.json --pods $REPO/tests/fixtures/import/pods.json --pods $REPO/tests/fixtures/import/pods-owners.json --report
# Lists of one kind are merged: the pods of both lists, on the nodes of
# both; gpu-h100 is in both node lists and counted once, with a warning.
