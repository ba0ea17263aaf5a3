emit labels $FIXTURES/fractions/eks-team.yaml
# HAMi, MPS and DRA-stack nodes; hami_node lines write HAMi's per-node scaling (A10G 0.986799, L4 0.975862).
