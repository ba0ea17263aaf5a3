import --nodes $FIXTURES/cluster/nodes-samples.json --pods $FIXTURES/cluster/pods-samples.json -m $REPO/tests/fixtures/import/samples/t4-ericsson-ccd-91pct-util.cncf-ai-conformance.prom --report
# The real scrape shared/samples/dcgm/t4-ericsson-ccd-91pct-util.cncf-ai-conformance.prom, on nodes named as its hosts
# (tests/cli/fixtures/cluster/README.md): GRID-A100-40C, RTX 6000 Ada and A800-SXM4-40GB
# nodes are left out with warnings.
