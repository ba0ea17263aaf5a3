cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --by namespace --spread-idle --format json
# Spread idle as JSON: idle_per_hour 0, spread_per_hour the idle, each row's idle_per_hour its part.
