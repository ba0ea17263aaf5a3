plan $REPO/examples/workloads.yaml --emit $TMP/out
# Writes device-plugin-config.yaml, gpu-operator-values.yaml, labels.sh and
# workloads.yaml (no MIG, no DRA, no --karpenter), then prints the plan.
