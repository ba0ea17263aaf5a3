mig T4
