import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --prometheus http://127.0.0.1:1 --until yesterday
# --until is RFC 3339 or unix seconds.
