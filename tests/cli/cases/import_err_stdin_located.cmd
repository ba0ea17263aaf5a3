import --nodes $REPO/tests/fixtures/import/nodes.json --pods -
# stdin: $REPO/tests/fixtures/import/errors/bad-quantity.json
# An error inside an item of a list read from stdin (which cannot be read
# twice) keeps its line and column: the item alone is read again to find it.
