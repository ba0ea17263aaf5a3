plan --format json $FIXTURES/memory/headroom.yaml
