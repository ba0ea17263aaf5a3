repl --keep-going $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/host.gsh
# cpu, memory and arch are keys of the table: set takes them, save writes them.
