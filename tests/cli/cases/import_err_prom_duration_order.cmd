import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --prometheus http://127.0.0.1:1 --window 30m1h
# Prometheus refuses units out of order (30m1h); so does gpushare.
