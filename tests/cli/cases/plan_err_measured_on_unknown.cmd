plan $FIXTURES/workloads/measured_on_unknown.yaml
