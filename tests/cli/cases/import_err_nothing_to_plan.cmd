import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods-empty.json
# No pod requests GPUs: a workload file would have no workloads.
