repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/errors.gsh
# Without --keep-going the script ends at its first failing line.
