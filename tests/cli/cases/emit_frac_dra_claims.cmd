emit dra $FIXTURES/fractions/uneven-dra.yaml
# A template per workload asking its gpuMemory x 23034/22478 of an L4's memory capacity.
