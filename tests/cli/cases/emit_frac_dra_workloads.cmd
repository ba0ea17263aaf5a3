emit workloads $FIXTURES/fractions/uneven-dra.yaml --example-deployments
# One Deployment per workload: each pod gets a claim of its own from the template.
