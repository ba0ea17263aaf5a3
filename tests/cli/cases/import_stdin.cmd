import --nodes - --pods $REPO/tests/fixtures/import/pods-empty.json --report
# stdin: $REPO/tests/fixtures/import/nodes.json
# The node list read from stdin; no pods: every GPU idle.
