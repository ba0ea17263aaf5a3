lint $REPO/tests/fixtures/lint/hami/good/configmaps.yaml $REPO/tests/fixtures/lint/hami/good/pods.yaml $REPO/tests/fixtures/lint/hami/good/values.yaml
