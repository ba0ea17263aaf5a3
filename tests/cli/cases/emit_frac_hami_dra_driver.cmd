emit dra-driver $FIXTURES/fractions/uneven.yaml --dra
# HAMi nodes beside a DRA stack: the GPU kubelet plugin runs on GPU nodes other than gpushare.io/fraction=hami.
