gpus NVIDIA-L40
# The gpu-feature-discovery label names the L40 (not the L40S); it has no MIG.
