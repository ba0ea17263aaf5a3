cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json -m $REPO/tests/fixtures/cost/range.json --basis usage
# Usage: the five pods report the T4's own series (mean 0.30): 0.06 of the GPU each, 0.70 idle.
