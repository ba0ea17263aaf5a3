lint $REPO/tests/fixtures/lint/validate/k8s/bad/nodepool-bad-requirements.yaml
