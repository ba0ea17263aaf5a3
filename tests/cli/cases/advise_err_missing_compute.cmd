advise --memory 10GiB
