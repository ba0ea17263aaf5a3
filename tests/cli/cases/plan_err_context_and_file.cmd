plan --context prod $REPO/examples/workloads.yaml
# A cluster and a workload file: one or the other.
