plan $REPO/tests/fixtures/cloud/no-single-cloud.yaml
