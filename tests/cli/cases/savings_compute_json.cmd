savings -i p3.2xlarge -r 4 -c 25% --format json
