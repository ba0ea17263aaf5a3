lint $REPO/tests/fixtures/lint/validate/device-plugin/bad/unknown-top-level-key.yaml
