plan --placement pinned $FIXTURES/opt-mig40.yaml
# the optimiser: old heuristic $61.92/h, proven optimum $55.04/h
