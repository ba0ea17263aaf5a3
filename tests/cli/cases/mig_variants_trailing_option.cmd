mig A100-40GB --variants
