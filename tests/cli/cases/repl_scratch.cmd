repl
# stdin: $FIXTURES/repl/scratch.gsh
