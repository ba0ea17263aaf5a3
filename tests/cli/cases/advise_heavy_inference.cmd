advise --latency critical --memory 18GiB --compute 60%
