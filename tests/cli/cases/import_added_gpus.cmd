import --nodes $FIXTURES/catalog/nodes-added-gpus.json --pods $REPO/tests/fixtures/import/pods-empty.json --report
# Nodes labelled with the added models import (an A800 node used to abort it): MIG single, mixed and time-slicing.
