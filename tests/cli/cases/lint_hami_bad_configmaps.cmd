lint $REPO/tests/fixtures/lint/hami/bad/configmaps.yaml
