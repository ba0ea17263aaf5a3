emit dra $FIXTURES/fractions/uneven-dra.yaml --kube-version 1.36
# From 1.36 DRAConsumableCapacity is beta and on by default.
