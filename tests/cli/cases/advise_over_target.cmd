advise --kind training --memory 30GiB --compute 95%
