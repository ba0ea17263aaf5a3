plan --placement pinned $FIXTURES/opt-hetero40.yaml
# the optimiser: old heuristic $9.66/h, proven optimum $9.35/h
