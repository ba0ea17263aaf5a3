emit workloads $REPO/examples/multi-gpu.yaml
# The patches request what a replica holds: nvidia.com/gpu: 3 and 2.
