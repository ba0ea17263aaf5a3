repl $REPO/examples/workloads.yaml
# stdin: $FIXTURES/repl/save_load.gsh
# The script saves into the case directory, its working directory.
