plan $FIXTURES/cluster/whole-gpu-each.yaml
# The repro as 0.1.0 sized it (each time-slice pod a whole T4) against the cluster's
# cost: the workloads ask 106.9% of its 6 GPUs, a data error said as a warning.
