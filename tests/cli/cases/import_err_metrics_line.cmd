import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json -m $REPO/tests/fixtures/import/errors/bad-line.prom --strict
# A unit after the value reads as a timestamp, and is not one.
