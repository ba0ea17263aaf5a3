repl --keep-going $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/errors.gsh
# Every line runs; the exit status is the first failure's.
