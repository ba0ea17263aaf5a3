plan --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json --metrics $REPO/tests/fixtures/import/samples/l4-aws-kops.cncf-ai-conformance.prom --metrics $REPO/tests/fixtures/import/samples/t4-ericsson-ccd-91pct-util.cncf-ai-conformance.prom --metrics $REPO/tests/fixtures/import/samples/l40s-upcloud.cncf-ai-conformance.prom
# issue 15's repro (shared/repro/cluster) with the L4, T4 and L40S scrapes: the five
# pods of the time-sliced T4 keep 1/8 of it each (no metrics), the L4 and L40S read
# their one pod's idle series: the plan costs less than the cluster's $11.60.
