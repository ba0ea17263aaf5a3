import --nodes $REPO/tests/fixtures/import/errors/unknown-gpu.json --pods $REPO/tests/fixtures/import/pods.json --strict
# Tesla-K80 is not in the catalog: named with its label value, never guessed.
