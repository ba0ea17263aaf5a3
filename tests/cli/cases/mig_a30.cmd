mig A30
