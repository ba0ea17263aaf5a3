plan $FIXTURES/multigpu/pinned.yaml
# Robust: 3-GPU replicas on g5.12xlarge nodes of their own; the robust line
# prices pinned, which fills their 4th GPUs with the 1-GPU replicas.
