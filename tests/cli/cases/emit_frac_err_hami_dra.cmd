emit hami $FIXTURES/fractions/uneven.yaml --dra
# HAMi's device plugin cannot run beside the DRA driver.
