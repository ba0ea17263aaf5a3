repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/quit.gsh
