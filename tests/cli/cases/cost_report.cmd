cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --by team --report $TMP/cost.html
# --report writes the HTML page (atomically) and says so on stderr; the table still prints.
