gpus --profiles $FIXTURES/bad-unknown-key
