emit dra $FIXTURES/fractions/heavy.yaml
# One MPS claim per GPU, its defaults the loosest client's (llm: 60 %, 14336 MiB).
