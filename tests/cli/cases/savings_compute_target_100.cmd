savings --instance p3.2xlarge --replicas 4 --compute 25% --target-utilization 100%
