savings -i p3.2xlarge -s fraction -b hami -m 512Mi
