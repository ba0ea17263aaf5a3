plan $FIXTURES/memory/headroom.yaml
