plan --placement pinned $FIXTURES/opt-ts40.yaml
# the optimiser: old heuristic $14.08/h, proven optimum $13.08/h
