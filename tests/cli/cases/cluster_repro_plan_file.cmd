plan $FIXTURES/cluster/imported.yaml
# The workload file import wrote from the repro (cluster_repro_plan's inputs): its
# 'cluster' key gives plan FILE the same before as plan --nodes, $11.60 and 6 GPUs.
