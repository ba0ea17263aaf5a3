savings -i p5.4xlarge -s mig:1g.10gb -c 10%
