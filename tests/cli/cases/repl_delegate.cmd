repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/delegate.gsh
