import --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json -m $REPO/tests/fixtures/import/failed-to-convert.prom --strict
# With --strict the first bad line is the located error it is.
