"""How levels are designed.

Read top-down, a request goes through:

- ``goal``: what is asked: meet K stops, or maximize;
- ``design``: ``design()``, the entry point, and the policies: which stages run, in what order,
  with what share of one budget;
- ``stages``: the stages, each ``(search, goal, share) -> StageResult``;
- ``state``: ``Search``, what they share (the request, the budget, the verifier, the seed's
  random stream), ``StageResult`` and ``Progress``;
- the searches the stages call: ``sampling``, ``climb``, ``anneal``, ``opengrid``,
  ``exhaustive``, and the CP-SAT model (``designer.models``);
- ``baselines``: the classic generators, for comparison;
- ``methods``: the one registry of methods (``auto``, ``cpsat``, ``random``, ...);
- ``packs``: packs of distinct levels, in process or on a cluster;
- ``executor``: where shards run (threads here, or dask).
"""
