repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/study.gsh
# The study of EXAMPLES in gpushare-repl(1), word for word.
