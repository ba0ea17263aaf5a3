gpus NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition
# By its GFD label: CC 12.0, and MIG on NVML's 12-unit placement grid (1g at 0/3/6/9, 2g at 0/6, 4g at 0).
