lint $REPO/tests/fixtures/lint/cross/keys.yaml $REPO/tests/fixtures/lint/cross/labels.sh $REPO/tests/fixtures/lint/cross/mps.yaml $REPO/tests/fixtures/lint/validate/k8s/good/mig-pod.yaml
