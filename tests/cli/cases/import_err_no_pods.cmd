import --nodes $REPO/tests/fixtures/import/nodes.json
