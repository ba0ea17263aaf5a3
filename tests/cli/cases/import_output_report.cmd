import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json -o $TMP/w.yaml --report
# Writes the workload file and prints the report; no metrics: every GPU unmeasured.
