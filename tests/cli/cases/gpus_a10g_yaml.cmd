gpus --format yaml a10g
