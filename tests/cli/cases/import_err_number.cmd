import --nodes $REPO/tests/fixtures/import/errors/number.json --pods $REPO/tests/fixtures/import/pods.json
# A JSON number where the node List should be.
