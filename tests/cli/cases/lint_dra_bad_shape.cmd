lint $REPO/tests/fixtures/lint/validate/k8s/bad/claim-v1-with-v1beta1-shape.yaml
