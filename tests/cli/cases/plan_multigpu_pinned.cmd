plan $FIXTURES/multigpu/pinned.yaml --placement pinned
# Pinned: a 3-GPU and a 1-GPU replica share each g5.12xlarge.
