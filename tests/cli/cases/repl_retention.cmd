repl --keep-going $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/retention.gsh
# issue 17: throughput and retention set at the prompt, wrong values refused
# with their line, and the file saved with them; resets drop them again.
