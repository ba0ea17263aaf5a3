gpus a10g --format yaml
