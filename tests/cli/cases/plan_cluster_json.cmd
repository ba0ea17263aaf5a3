plan --format json --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --metrics $REPO/tests/fixtures/import/t4-a-1.prom
