advise --memory 10XB --compute 40%
