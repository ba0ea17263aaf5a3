plan $FIXTURES/emit/pinned.yaml
