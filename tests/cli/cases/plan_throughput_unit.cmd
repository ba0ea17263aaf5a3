plan $FIXTURES/retention/throughput_unit.yaml
# throughput counts tokens/s or requests/s, nothing else.
