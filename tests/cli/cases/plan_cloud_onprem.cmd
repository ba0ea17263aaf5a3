plan $REPO/tests/fixtures/cloud/onprem.yaml --profiles $REPO/profiles:$REPO/examples/profiles-onprem
