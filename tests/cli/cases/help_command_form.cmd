help mig
