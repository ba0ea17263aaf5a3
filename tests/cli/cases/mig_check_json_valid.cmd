mig --format json A100-40GB 3g.20gb 2x1g.5gb
