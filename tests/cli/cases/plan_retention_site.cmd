plan $FIXTURES/retention/throughput.yaml --profiles $REPO/profiles:$FIXTURES/retention/site
# A later profile directory's retention.yaml replaces the time-slicing row: the
# workloads without their own figure keep 60-70% of their throughput, per the site.
