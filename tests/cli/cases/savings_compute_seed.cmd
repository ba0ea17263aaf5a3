savings --instance p3.2xlarge --replicas 4 --compute 25%
