repl --keep-going $FIXTURES/fractions/uneven.yaml
# stdin: $FIXTURES/repl/sweep_fraction.gsh
# issue 17: where a HAMi fraction stops holding the chat model
