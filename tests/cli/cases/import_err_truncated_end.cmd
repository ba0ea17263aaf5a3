import --nodes $REPO/tests/fixtures/import/errors/truncated-end.json --pods $REPO/tests/fixtures/import/pods.json
# nodes.json without its last '}': every node was read, but the List does
# not end, so nothing is imported.
