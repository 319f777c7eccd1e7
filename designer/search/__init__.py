"""How levels are designed.

Read top-down, a request goes through the policy that decides:

- ``goal``: what is asked: meet K stops, or maximize;
- ``design``: ``design()``, the entry point, and the policies: which stages run, in what order,
  with what share of one budget;
- ``stages``: the stages, each ``(search, goal, share) -> StageResult``;
- ``methods``: the one registry of methods (``auto``, ``cpsat``, ``sat``, ``random``, ...);
- ``packs``: packs of distinct levels, in process or on a cluster;

then the engines that search, in a folder of their own below it (``designer.search.engines``:
sampling, climb, anneal, open grid, exhaustive, ends, refute, items, rooms, the classic
generators) and the CP-SAT and SAT models (``designer.models``); and what they all share:

- ``state``: ``Search``, what the stages share (the request, the budget, the verifier, the
  seed's random stream), ``StageResult`` and ``Progress``; ``result``: ``Design``;
- ``executor`` and ``cluster``: where shards run (threads here, processes, or dask);
- ``tuning``: every measured constant.
"""
