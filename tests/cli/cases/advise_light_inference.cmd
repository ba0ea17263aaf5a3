advise --memory 10GiB --compute 40%
