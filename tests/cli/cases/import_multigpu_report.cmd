import --nodes $FIXTURES/multigpu/nodes.json --pods $FIXTURES/multigpu/pods.json -m $FIXTURES/multigpu/ollama.prom --report
# The report line: its pods request 3 GPUs each.
