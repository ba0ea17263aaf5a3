mig RTX-PRO-6000-96GB
# The 4 maximal classic geometries of mig-truth.json key RTX-PRO-6000-96GB (9 feasible).
