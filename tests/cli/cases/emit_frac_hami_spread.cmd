emit workloads $FIXTURES/fractions-emit/four-hami-spread.yaml --example-deployments
# chat is spread: gpu on four L4s of one node: no anti-affinity, as HAMi never puts two 17408 MiB caps on one (22478 MiB accounted).
