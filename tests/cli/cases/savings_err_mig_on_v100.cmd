savings -i p3.2xlarge -r 4 --strategy mig:1g.5gb
