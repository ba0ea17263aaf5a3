plan $FIXTURES/retention/retention_dedicated.yaml
# A dedicated GPU keeps all its throughput: retention names shared strategies.
