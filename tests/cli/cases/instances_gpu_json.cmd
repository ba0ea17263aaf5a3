instances --gpu A100-SXM4-40GB --format json
