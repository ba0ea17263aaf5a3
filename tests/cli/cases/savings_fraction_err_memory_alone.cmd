savings -i g6.xlarge -r 4 -s mps --memory 4Gi
