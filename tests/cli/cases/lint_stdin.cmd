lint -
# stdin: ../../fixtures/lint/validate/mig-parted/bad/invalid-profile.yaml
