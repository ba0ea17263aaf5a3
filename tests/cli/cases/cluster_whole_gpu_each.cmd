plan $FIXTURES/cluster/whole-gpu-each.yaml
# The repro as 0.1.0 wrote it (each time-slice pod a whole T4, the rest as requested)
# against the cluster's cost: $12.18 against $11.60, said before the table with its
# causes, and a data error: the workloads ask 153.7% of its 6 GPUs.
