plan $REPO/examples/mixed-fleet.yaml --emit $TMP/deep/out --karpenter --dra --rename-shared --example-deployments
# A directory two levels down; no MIG: every kind but mig-config.yaml.
