plan $FIXTURES/truth/seed.yaml
