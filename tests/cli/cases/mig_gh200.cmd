mig GH200-120GB
# Maximal geometries of the GH200 GPU (mig-truth.json key H100-96GB: 28 base maximal, 77 feasible).
