import --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json -m $REPO/tests/fixtures/import/data-errors.prom --report
# Readings above 100% and below 0 are data errors, named per GPU and read as 100% and
# 0; five pods whose own GPU_UTIL adds up to 150% where their T4 read 100% are each
# read as their part of the 100% (20%), with a warning.
