import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json -m $REPO/tests/fixtures/import/t4-a-1.prom -m $REPO/tests/fixtures/import/t4-a-2.prom -m $REPO/tests/fixtures/import/t4-b.prom -m $REPO/tests/fixtures/import/a100-mixed.prom -m $REPO/tests/fixtures/import/range.json --percentile 50 --team-label team
# Without --output the workload file goes to stdout, warnings to stderr;
# p50 instead of p95, teams from the pods' 'team' label.
