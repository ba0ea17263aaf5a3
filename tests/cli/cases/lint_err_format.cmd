lint --format xml $REPO/tests/fixtures/lint/validate/mig-parted/good/standard.yaml
