plan $FIXTURES/workloads/control_chars.yaml
