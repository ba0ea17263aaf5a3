emit dra $REPO/examples/workloads.yaml
# No example says via: dra, so DRA needs --dra.
