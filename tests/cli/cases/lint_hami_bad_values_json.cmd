lint --format json $REPO/tests/fixtures/lint/hami/bad/values.yaml
