plan $FIXTURES/truth/seed.yaml --format json
