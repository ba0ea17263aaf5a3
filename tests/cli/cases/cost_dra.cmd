cost --nodes $REPO/tests/fixtures/cost/dra-nodes.json --pods $REPO/tests/fixtures/cost/dra-pods.json --claims $REPO/tests/fixtures/cost/dra-claims.json --team-label team
# DRA claims: whole GPUs, 12Gi consumed of an L4 shared by two pods, MIG devices named both ways,
# a claim reserved for no pod; admin access and other drivers hold nothing; warnings on stderr.
