repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/scenarios.gsh
