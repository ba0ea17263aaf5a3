lint $REPO/tests/fixtures/lint/validate/device-plugin/bad/configmap-stream-bad-value.yaml
