emit dra --dra-api v1beta2 $FIXTURES/emit/via-dra.yaml
