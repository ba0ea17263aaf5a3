plan $FIXTURES/workloads/two_documents.yaml
