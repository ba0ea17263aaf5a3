repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/edit.gsh
