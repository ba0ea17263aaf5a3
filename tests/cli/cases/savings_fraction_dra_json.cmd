savings -i g6.xlarge -s fraction -b dra --memory 1Gi -c 33.1% --target-utilization 100% --format json
