lint --help
