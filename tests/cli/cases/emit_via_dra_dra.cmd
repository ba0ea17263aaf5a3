emit dra $FIXTURES/emit/via-dra.yaml
# via: dra: no --dra needed.
