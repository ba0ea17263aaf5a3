plan $REPO/tests/fixtures/cloud/all-onprem.yaml --profiles $REPO/profiles:$REPO/examples/profiles-onprem
