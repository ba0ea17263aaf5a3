repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/undo_redo.gsh
