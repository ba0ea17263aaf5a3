emit workloads $REPO/examples/multi-gpu.yaml --dra
# Pods of 3 GPUs take the template of 3 (resourceClaimTemplateName).
