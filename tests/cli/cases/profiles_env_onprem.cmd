instances --cloud onprem
# env: GPUSHARE_PROFILES=$REPO/profiles:$FIXTURES/onprem
