advise --memory 14GiB --compute 60% --fractions dra,mps
