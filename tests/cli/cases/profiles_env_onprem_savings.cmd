savings --instance rack1-a100x8 --replicas 4
# env: GPUSHARE_PROFILES=$REPO/profiles:$FIXTURES/onprem
