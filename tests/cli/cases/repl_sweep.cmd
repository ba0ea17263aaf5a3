repl --keep-going $FIXTURES/retention/throughput.yaml
# stdin: $FIXTURES/repl/sweep.gsh
# issue 17: the REPL sweeps a load or a retention figure and shows where the
# decision flips
