repl $FIXTURES/multigpu/pinned.yaml
# stdin: $FIXTURES/repl/multigpu.gsh
