advise --memory 14GiB --compute 60% --latency critical --fractions hami,dra
