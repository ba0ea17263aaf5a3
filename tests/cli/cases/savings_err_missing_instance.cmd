savings --replicas 4
