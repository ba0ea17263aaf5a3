emit karpenter --rename-shared $FIXTURES/karpenter/multi-tenant-mig-aws.yaml
