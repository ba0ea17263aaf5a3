lint $REPO/tests/fixtures/lint/validate/k8s/good/karpenter.yaml
