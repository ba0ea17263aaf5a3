plan $REPO/examples/workloads.yaml --profiles $REPO/profiles:$FIXTURES/retention/bad-backend
# A misspelt backend is refused with the nearest name.
