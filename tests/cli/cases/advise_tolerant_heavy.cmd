advise --memory 12GiB --compute 65%
