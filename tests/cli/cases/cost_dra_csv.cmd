cost --nodes $REPO/tests/fixtures/cost/dra-nodes.json --pods $REPO/tests/fixtures/cost/dra-pods.json --claims $REPO/tests/fixtures/cost/dra-claims.json --team-label team --by team --format csv
# The DRA cluster's teams as CSV.
