mig H100-80GB 7g.79gb
