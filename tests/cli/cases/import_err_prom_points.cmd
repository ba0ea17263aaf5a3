import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --prometheus http://127.0.0.1:1 --window 1y --step 1s
# 31,536,001 points per series would be kept in memory: refused before any request.
