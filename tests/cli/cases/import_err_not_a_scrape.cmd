import --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json -m $REPO/tests/fixtures/import/errors/kubectl-table.txt
# `kubectl get pods` as it prints to a terminal, given as metrics: no line of it is a
# sample, so it is not a scrape: an error, not warnings.
