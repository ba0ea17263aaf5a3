repl
# stdin: $FIXTURES/repl/help.gsh
