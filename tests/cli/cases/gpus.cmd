gpus
