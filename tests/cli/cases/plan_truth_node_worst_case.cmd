plan $FIXTURES/truth/node-worst-case.yaml
