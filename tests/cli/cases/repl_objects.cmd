repl $FIXTURES/workloads/objects.yaml
# stdin: $FIXTURES/repl/objects.gsh
