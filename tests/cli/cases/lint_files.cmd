lint $REPO/tests/fixtures/lint/validate/device-plugin/good/mps.yaml $REPO/tests/fixtures/lint/validate/device-plugin/bad/replicas-zero.yaml
