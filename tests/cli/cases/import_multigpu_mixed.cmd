import --nodes $FIXTURES/multigpu/nodes-mixed.json --pods $FIXTURES/multigpu/pods-mixed.json
# vllm-0 requests 2 GPUs and vllm-1 one: planned as 2 per replica, with a
# warning naming the workload.
