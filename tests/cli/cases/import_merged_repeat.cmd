import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --pods $REPO/tests/fixtures/import/pods.yaml
# The same pods twice (JSON, then YAML): the workload file is the one
# pods.json gives alone, and one warning counts the 21 repeated pods.
