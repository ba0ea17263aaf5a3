emit karpenter $FIXTURES/fractions/uneven.yaml
# HAMi nodes launched with gpu=on and the operator's device plugin off; the overlay says HAMi's 10 slots, 22478 MiB and 100 % per L4.
