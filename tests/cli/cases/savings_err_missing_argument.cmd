savings -i p3.2xlarge --replicas
