lint $REPO/tests/fixtures/lint/validate/device-plugin/bad/chart-values-unknown-default.yaml
