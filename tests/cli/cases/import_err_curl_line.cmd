import --nodes $REPO/tests/fixtures/import/nodes.json --pods $REPO/tests/fixtures/import/pods.json -m $REPO/tests/fixtures/import/samples/grid-a100-40c-vgpu-vks.cncf-ai-conformance.prom --strict
# The vGPU scrape ends with a line curl printed.
