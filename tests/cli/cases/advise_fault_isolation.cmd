advise --isolation fault --memory 4GiB --compute 10%
