import --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json --metrics $REPO/tests/fixtures/import/samples/l4-aws-kops.cncf-ai-conformance.prom --metrics $REPO/tests/fixtures/import/samples/t4-ericsson-ccd-91pct-util.cncf-ai-conformance.prom --metrics $REPO/tests/fixtures/import/samples/l40s-upcloud.cncf-ai-conformance.prom --report
# The repro's utilization report: each time-slice pod's 1/8 share, the L4 and L40S
# idle and their pods' 0%, each share of a node today.
