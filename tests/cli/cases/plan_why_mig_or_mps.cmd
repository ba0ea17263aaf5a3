plan $FIXTURES/why/mig-or-mps.yaml
