import --nodes $FIXTURES/cluster/nodes.json --pods $FIXTURES/cluster/pods.json -m $REPO/tests/fixtures/import/vgpu-ts.prom --report
# dcgm-exporter --kubernetes-virtual-gpus: GR_ENGINE copied per vgpu replica is
# divided by the replicas each pod holds; FB_USED, each pod's own, stays each pod's.
