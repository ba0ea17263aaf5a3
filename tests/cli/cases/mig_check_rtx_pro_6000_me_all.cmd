mig RTX-PRO-6000 2g.48gb+me.all 1g.24gb
# +me.all takes all four NVDECs, so only -me profiles may join it.
