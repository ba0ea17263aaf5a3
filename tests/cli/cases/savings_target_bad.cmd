savings -i p3.2xlarge -r 4 --target-utilization 150%
