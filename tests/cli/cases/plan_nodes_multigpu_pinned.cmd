plan --nodes $FIXTURES/multigpu/nodes.json --pods $FIXTURES/multigpu/pods.json --metrics $FIXTURES/multigpu/ollama.prom --placement pinned
# Pinned: the wide ollama replica's cheapest span is a g5.12xlarge, not a p4de.24xlarge.
