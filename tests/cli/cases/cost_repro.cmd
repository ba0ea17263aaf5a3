cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json
# The repro cluster (tests/fixtures/cost/README.md): replicas of the time-sliced T4 at 1/8,
# the H100's all-balanced slices scaled from 15/14 to fit, an idle A10G; rows + idle = total.
