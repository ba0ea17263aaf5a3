emit workloads $FIXTURES/emit/same-object.yaml
