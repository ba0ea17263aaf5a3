repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/quoting.gsh
