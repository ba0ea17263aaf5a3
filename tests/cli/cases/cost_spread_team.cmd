cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --by team --gpu-weight 90 --spread-idle
# Idle spread over the teams by their held cost: the idle line is 0, the IDLE column adds up to it.
