repl a.yaml b.yaml
