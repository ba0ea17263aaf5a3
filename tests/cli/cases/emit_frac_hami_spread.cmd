emit workloads $FIXTURES/fractions-emit/hami-spread.yaml --example-deployments
# spread: gpu on HAMi: chat (two caps overflow an L4) without anti-affinity, embed (two fit) one pod per node.
