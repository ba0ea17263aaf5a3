repl --keep-going $FIXTURES/fractions/uneven-none.yaml
# stdin: $FIXTURES/repl/fractions.gsh
# issue 17: the file's fractions set, refused, saved and reset at the prompt
