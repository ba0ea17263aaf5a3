emit labels $FIXTURES/fractions/uneven.yaml
# HAMi nodes: gpu=on for HAMi's device plugin, the GPU Operator's off.
