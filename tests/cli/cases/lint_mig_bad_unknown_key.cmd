lint $REPO/tests/fixtures/lint/validate/mig-parted/bad/unknown-key.yaml
