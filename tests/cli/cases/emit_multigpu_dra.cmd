emit dra $REPO/examples/multi-gpu.yaml --dra
# A template per count: gpushare-gpu-x3 (count: 3), gpushare-gpu-x2.
