gpus --profiles $TMP/nope
