import --nodes $FIXTURES/multigpu/nodes.json --pods $FIXTURES/multigpu/pods.json -m $FIXTURES/multigpu/ollama.prom
# The repro cluster (../shared/repro/cluster) with an ollama pod of 3 A10Gs on
# a g5.12xlarge: one replica of gpusPerReplica 3; compute and memory the p95
# over its 3 GPUs' samples (62%, 20100 MiB -> 20480MiB).
