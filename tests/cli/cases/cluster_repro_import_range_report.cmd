import --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json --metrics $FIXTURES/cluster/range.json --report
# The report of the same: the T4 at 30% and 6000 MiB, divided evenly among its 5 pods.
