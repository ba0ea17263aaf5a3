mig --variants A100-40GB
