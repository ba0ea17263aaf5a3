emit hami $FIXTURES/fractions/uneven.yaml
# HAMi values: usable memory accounted (L4 22478 of 23034 MiB), split 10, binpack, webhook for gpushare.io/fraction=hami.
