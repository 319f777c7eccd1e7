"""The engines: what searches, below the policy that picks them (``designer.search.design``).

Each takes a request (or a ``Search``) and a budget and returns layouts it found, or a proof:

- ``sampling``: seeded random layouts in compiled batches;
- ``climb``: neighbourhood search; ``anneal``: simulated annealing chains;
- ``opengrid``: annealing on the compressed layouts of large open grids;
- ``exhaustive``: every layout up to symmetry (a proof when it completes);
- ``ends``: the CP-SAT model (``designer.models``) posed once per start and goal pair;
- ``refute``: the counterexample loop (``designer.models.refute``) per pair, on processes;
- ``items``: the chains over states that place items and portals;
- ``rooms``: how a room's routes are scored together;
- ``baselines``: the classic generators, for comparison.

None of them imports the policy (``design``, ``stages``, ``methods``, ``packs``).
"""
