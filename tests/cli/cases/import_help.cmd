import --help
