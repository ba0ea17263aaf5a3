plan $FIXTURES/retention/throughput.yaml --format json
# The same as plan_retention_throughput: retention {low_percent, high_percent,
# source} and per_unit {unit, before, after_low, after_high, pays} per workload,
# exact to the micro-dollar (0.353024 = 0.678653 / 1.9224, rounded).
