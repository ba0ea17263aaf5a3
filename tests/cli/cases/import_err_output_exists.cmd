import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json -o $TMP
# An existing path is refused without --force (here the case's own directory).
