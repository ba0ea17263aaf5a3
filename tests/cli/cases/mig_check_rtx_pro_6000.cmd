mig RTX-PRO-6000 2g.48gb 2x1g.24gb
# all-balanced of the GPU Operator default config for 0x2BB510DE: starts are NVML's (0, 6, 9).
