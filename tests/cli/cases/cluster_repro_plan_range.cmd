plan --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json --metrics $FIXTURES/cluster/range.json
# With range.json's per-pod series, which are copies of the T4's (30%, 6000 MiB):
# divided among its five pods, 6% and 1200 MiB each, with a warning.
