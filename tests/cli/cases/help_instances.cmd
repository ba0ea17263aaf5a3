instances --help
