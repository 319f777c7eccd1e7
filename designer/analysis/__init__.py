"""What a level is: figures computed from a level, returned as plain values.

- ``classify``: class, reversibility and min stops, compiled and batched (the generators' fast path);
- ``solver``: the optimal solution (fewest moves, or least distance);
- ``graph``: the full analysis on the move graph (networkx): SCCs, traps, branching, creativity;
- ``bounds``: cheap theorems that prove some requests infeasible;
- ``tidy``: whether every placed tile is needed, and tidying a level;
- ``verify``: the one verifier: does a level meet a request?
- ``tour``: the full clear (every coin and item, then the exit), over the states reached;
- ``coins``: each coin's figures (what it adds, on every fewest way, full-clear traps).
"""
