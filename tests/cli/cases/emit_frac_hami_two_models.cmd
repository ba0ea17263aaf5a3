emit hami $FIXTURES/fractions/eks-team.yaml
# Two HAMi models (A10G, L4): each node's own deviceMemoryScaling in the ConfigMap labels.sh writes.
