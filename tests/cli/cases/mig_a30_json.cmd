mig --format json A30
