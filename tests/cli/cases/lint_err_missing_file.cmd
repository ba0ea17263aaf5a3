lint $REPO/tests/fixtures/lint/no-such-file.yaml $REPO/tests/fixtures/lint/validate/mig-parted/good/standard.yaml
