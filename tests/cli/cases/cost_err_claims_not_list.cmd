cost --nodes $REPO/tests/fixtures/cost/nodes.json --pods $REPO/tests/fixtures/cost/pods.json --claims $REPO/tests/fixtures/cost/claims-array.json
# A claims file that is not what kubectl get resourceclaims prints.
