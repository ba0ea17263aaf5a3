savings -i g6.xlarge --strategy fraction --backend mps --replicas 4
