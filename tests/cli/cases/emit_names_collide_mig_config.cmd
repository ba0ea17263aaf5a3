emit mig-config $FIXTURES/names/workloads.yaml --profiles $REPO/profiles:$FIXTURES/names
