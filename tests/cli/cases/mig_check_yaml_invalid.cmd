mig --format yaml A100-40GB 3g.20gb 3g.20gb 1g.5gb
