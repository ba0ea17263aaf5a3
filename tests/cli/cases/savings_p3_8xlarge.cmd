savings --instance p3.8xlarge --replicas 8
