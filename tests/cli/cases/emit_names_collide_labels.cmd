emit labels $FIXTURES/names/workloads.yaml --profiles $REPO/profiles:$FIXTURES/names
