plan $FIXTURES/workloads/replicas_word.yaml
