plan $FIXTURES/workloads/arch_kernel_name.yaml
