repl --help
