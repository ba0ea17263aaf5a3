plan $REPO/examples/workloads.yaml --profiles $REPO/profiles:$FIXTURES/retention/bad-range
# A row whose high is below its low is refused where it is written.
