cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --force
# --force is for --report.
