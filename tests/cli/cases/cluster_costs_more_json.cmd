plan $FIXTURES/cluster/costs-more.yaml --format json
# The same as the JSON key costs_more.
