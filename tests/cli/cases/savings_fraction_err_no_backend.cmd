savings -i g6.xlarge -s fraction --memory 4Gi
