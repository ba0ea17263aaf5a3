plan --nodes $REPO/tests/fixtures/import/nodes.json examples/workloads.yaml
