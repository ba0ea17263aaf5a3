emit karpenter $FIXTURES/karpenter/eks-team.yaml
