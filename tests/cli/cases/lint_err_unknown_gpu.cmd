lint --gpu A100 $REPO/tests/fixtures/lint/validate/mig-parted/good/standard.yaml
