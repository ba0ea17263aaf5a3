savings -i g6.xlarge -r 4 --backend hami
