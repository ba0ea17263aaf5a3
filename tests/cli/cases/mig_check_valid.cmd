mig A100-40GB 3g.20gb 2g.10gb 1g.5gb 1g.5gb
