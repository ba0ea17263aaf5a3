mig A100-40GB 4g.20gb 2g.10gb 2g.10gb
