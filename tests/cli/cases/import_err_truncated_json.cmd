import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/errors/truncated.json
# pods.json cut after 5000 bytes.
