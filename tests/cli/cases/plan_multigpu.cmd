plan $REPO/examples/multi-gpu.yaml
# Pods of 3 and 2 whole GPUs (gpusPerReplica) beside light inference: each
# replica on one node with that many GPUs, dedicated, its cost N GPUs of it.
