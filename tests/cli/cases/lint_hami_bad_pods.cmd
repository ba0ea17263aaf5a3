lint $REPO/tests/fixtures/lint/hami/bad/pods.yaml
