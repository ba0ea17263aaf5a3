import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --prometheus http://127.0.0.1:1/ --until 2024-11-21T14:40:00+01:00
# Nothing listens on port 1: one line naming the URL as given, exit 2, no output.
