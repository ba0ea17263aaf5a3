cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --format json
# The same as JSON: rows' cost_per_hour + idle_per_hour = total_per_hour (tests/cost/sum.py).
