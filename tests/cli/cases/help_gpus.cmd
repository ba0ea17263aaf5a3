gpus --help
