plan $FIXTURES/workloads/unclosed_quote.yaml
