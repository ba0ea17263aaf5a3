cost --nodes $REPO/tests/fixtures/cost/dra-nodes.json --pods $REPO/tests/fixtures/cost/dra-pods.json --claims $REPO/tests/fixtures/cost/dra-claims.json --format json
# The DRA cluster as JSON: holders marked dra; the claim reserved for no pod is a ResourceClaim row.
