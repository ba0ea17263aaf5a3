import --context prod
# env: KUBECTL=$TMP/no-kubectl
# The kubectl to run is not there: one error naming it, nothing imported.
