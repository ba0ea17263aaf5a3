plan $FIXTURES/multigpu/too-wide.yaml
# 4 GPUs per replica, and no allowed instance has more than 1.
