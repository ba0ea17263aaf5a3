emit dra $FIXTURES/fractions/uneven-dra.yaml --kube-version 1.33
# Consumable capacity needs Kubernetes 1.34.
