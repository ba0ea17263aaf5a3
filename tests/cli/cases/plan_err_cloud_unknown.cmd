plan $REPO/tests/fixtures/cloud/onprm.yaml --profiles $REPO/profiles:$REPO/examples/profiles-onprem
