savings -i p3.2xlarg -r 4
