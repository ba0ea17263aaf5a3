cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --mig-share memory --by namespace --format json
# MIG slices by memory slices over 8: 1g.10gb 1/8, 3g.40gb 4/8, no scaling; the rest of the H100 idle.
