import --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json --metrics $FIXTURES/cluster/range.json
# The workload file: the cluster's cost once ($11.6038, 6 GPUs, 6 nodes), each
# workload's share of its instances, the time-slice pods at 6% and 1.5 GiB.
