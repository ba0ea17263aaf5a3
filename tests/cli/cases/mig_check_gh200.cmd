mig GH200-96GB 3g.48gb 2g.24gb 1g.24gb
# The layout a public GH200 480GB nvidia-smi shows (3g.48gb + 2g.24gb + 1g.24gb) is valid.
