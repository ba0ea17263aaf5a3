plan $FIXTURES/truth/mig-showback.yaml
