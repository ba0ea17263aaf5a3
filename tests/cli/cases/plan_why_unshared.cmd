plan $FIXTURES/why/unshared.yaml
