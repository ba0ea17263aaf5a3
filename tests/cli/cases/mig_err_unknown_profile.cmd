mig A100-40GB 5g.20gb
