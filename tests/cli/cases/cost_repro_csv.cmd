cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --format csv
# The same as CSV: a header, the rows, and __idle__, so the cost column adds up to the total.
