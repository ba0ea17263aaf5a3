emit workloads $FIXTURES/emit/via-dra.yaml
