gpus --format json
