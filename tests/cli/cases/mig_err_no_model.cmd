mig
