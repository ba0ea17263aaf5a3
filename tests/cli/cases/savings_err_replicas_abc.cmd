savings -i p3.2xlarge -r abc
