plan $FIXTURES/workloads/arch_arm64_gcp.yaml
