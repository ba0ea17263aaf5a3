plan $REPO/examples/multi-gpu.yaml --format json
# gpus_per_replica per workload; a replica of N GPUs is listed on each.
