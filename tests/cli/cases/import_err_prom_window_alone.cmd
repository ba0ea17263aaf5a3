import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --window 7d
# --window, --step, --until and --timeout shape the Prometheus queries:
# without --prometheus they are a usage error, not ignored.
