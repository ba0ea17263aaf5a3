emit dra-driver $FIXTURES/fractions/uneven-dra.yaml
# ConsumableShares on, in memory mode.
