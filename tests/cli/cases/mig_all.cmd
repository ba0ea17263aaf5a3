mig A100-40GB --all
