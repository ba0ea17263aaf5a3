emit workloads $FIXTURES/fractions/uneven.yaml --example-deployments
# Each pod asks its own cap and SM %: chat 17408 MiB 40 %, embed 4096 MiB 20 %, through hami-scheduler.
