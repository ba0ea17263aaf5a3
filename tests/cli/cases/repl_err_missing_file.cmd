repl missing.yaml
