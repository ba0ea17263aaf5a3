repl -k $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/stale.gsh
