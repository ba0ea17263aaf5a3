mig RTX-PRO-6000 --variants
# Every profile: 64 maximal of 114 feasible, as mig-truth.json counts them with the engine budget.
