plan $FIXTURES/workloads/name_not_dns.yaml
