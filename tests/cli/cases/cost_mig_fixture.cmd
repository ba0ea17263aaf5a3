cost --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json --mig-share compute --by namespace
# import's fixture cluster: MIG mixed (3g.20gb, 2g.10gb, 1g.5gb) and single (1g.5gb x 56) A100s,
# time-sliced T4s (one renamed to gpu.shared), an H100 node; slices by compute slices over 7.
