savings -i g6.xlarge -s fraction -b hami
