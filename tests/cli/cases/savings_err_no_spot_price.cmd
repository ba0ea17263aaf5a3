savings -i Standard_ND96isr_H100_v5 -r 4 --pricing spot
