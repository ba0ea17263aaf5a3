import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json -m $REPO/tests/fixtures/import/t4-a-1.prom -m $REPO/tests/fixtures/import/t4-a-2.prom -m $REPO/tests/fixtures/import/t4-b.prom -m $REPO/tests/fixtures/import/a100-mixed.prom -m $REPO/tests/fixtures/import/range.json --format json
# The same report as JSON (--format implies --report).
