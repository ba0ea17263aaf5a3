emit
