plan $FIXTURES/workloads/mem_headroom_high.yaml
