gpus H100-80G
