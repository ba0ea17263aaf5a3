emit workloads $FIXTURES/fractions/heavy.yaml --example-deployments
# Each client lowers the claim's defaults to its own limits in its environment.
