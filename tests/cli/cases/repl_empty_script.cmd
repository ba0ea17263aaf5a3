repl $REPO/examples/workloads.yaml
# stdin: /dev/null
# An empty script: the load's summary, exit 0.
