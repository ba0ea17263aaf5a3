import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --prometheus ftp://prometheus:9090
# Only http and https: the API paths are appended to the base URL.
