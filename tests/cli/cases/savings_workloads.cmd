savings --instance p3.2xlarge --workloads 10 --replicas 4
