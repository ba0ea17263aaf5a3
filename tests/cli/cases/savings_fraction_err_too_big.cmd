savings -i g6.xlarge -s fraction -b hami --memory 30Gi
