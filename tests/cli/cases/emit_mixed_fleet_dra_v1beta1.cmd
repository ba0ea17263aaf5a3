emit dra --dra --dra-api v1beta1 $REPO/examples/mixed-fleet.yaml
