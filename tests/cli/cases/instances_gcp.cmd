instances --cloud gcp
