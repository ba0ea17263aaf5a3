advise --memory 17GiB --compute 40% --fractions hami,mps
