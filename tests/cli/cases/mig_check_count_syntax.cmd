mig A100-40GB 2x1g.10gb,3g.20gb
