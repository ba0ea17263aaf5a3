savings -i p3.2xlarge -r 17 --strategy mps
