cost --help
