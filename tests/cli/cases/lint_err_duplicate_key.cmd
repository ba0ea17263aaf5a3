lint $REPO/tests/fixtures/lint/validate/k8s/bad/duplicate-key.yaml
