savings --help
