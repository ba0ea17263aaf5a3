import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --prometheus http://127.0.0.1:1 --step 5x
# A duration is Prometheus': units ms s m h d w y, largest first, or seconds.
