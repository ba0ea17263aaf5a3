gpus NVIDIA-GH200-480GB
# The GH200 480GB label names the Grace Hopper GPU (96 GB HBM3) and its MIG profiles.
