plan --prometheus http://127.0.0.1:1
# --prometheus reads DCGM series for a cluster's pods: it needs --nodes and --pods.
