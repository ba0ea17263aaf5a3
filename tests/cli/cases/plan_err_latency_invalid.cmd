plan $FIXTURES/workloads/latency_invalid.yaml
