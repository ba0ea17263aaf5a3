plan $FIXTURES/workloads/tab_indent.yaml
