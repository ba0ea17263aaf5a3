savings -i g6.xlarge -s fraction -b vgpu --memory 4Gi
