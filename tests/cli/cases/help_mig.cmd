mig --help
