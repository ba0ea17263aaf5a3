savings -i g6.xlarge -s fraction -b hami --memory 1Gi -c 33.1% --target-utilization 100% -r 3
