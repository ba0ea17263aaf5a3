import --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json -m $REPO/tests/fixtures/import/failed-to-convert.prom --report
# dcgm-exporter's 'ERROR - FAILED TO CONVERT TO STRING' lines are skipped, one
# warning each and a count; the rest of the scrape is read.
