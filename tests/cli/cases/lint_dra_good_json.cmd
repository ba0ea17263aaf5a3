lint --format json $REPO/tests/fixtures/lint/validate/k8s/good/dra-claims-all-versions.yaml
