emit hami $FIXTURES/fractions/uneven-none.yaml
# No fractions allowed: no HAMi values.
