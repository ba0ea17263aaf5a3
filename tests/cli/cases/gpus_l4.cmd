gpus L4
