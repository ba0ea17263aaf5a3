lint $REPO/tests/fixtures/lint/validate/k8s/bad/claim-nvidia-gpuconfig-bad.yaml
