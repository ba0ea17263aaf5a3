plan $FIXTURES/cluster/costs-more.yaml
# A plan that costs more than the cluster says so before the table, with its causes
# in figures: an unpriced node, a replica that shares today planned whole, a node
# sized for its pods' CPU, dearer GPUs, and the workloads that cost most more.
