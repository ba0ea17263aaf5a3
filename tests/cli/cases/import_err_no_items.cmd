import --nodes $REPO/tests/fixtures/import/errors/no-items.json --pods $REPO/tests/fixtures/import/pods.json
# An object without 'items'.
