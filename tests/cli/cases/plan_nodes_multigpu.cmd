plan --nodes $FIXTURES/multigpu/nodes.json --pods $FIXTURES/multigpu/pods.json --metrics $FIXTURES/multigpu/ollama.prom
# The ollama pod stays one replica of 3 GPUs on one g5.12xlarge.
