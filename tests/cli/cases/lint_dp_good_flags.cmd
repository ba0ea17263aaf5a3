lint $REPO/tests/fixtures/lint/validate/device-plugin/good/flags-and-device-list.yaml
