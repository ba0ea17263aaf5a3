cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json -m $REPO/tests/fixtures/cost/range.json --basis usage --format json
# The same as JSON: holders say basis "usage"; pods_by_usage counts them.
