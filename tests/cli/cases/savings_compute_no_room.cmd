savings -i p3.2xlarge -r 4 -c 60% --strategy mps
