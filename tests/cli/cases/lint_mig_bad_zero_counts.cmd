lint $REPO/tests/fixtures/lint/validate/mig-parted/bad/zero-counts-and-disabled-with-devices.yaml
