plan $REPO/examples/workloads.yaml --emit $FIXTURES/emit/existing
# The directory already holds device-plugin-config.yaml: refused before
# anything is written (the fixture directory must stay unchanged).
