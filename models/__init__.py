"""The models of a design request, installed as ``designer.models``: the CP-SAT formulation, and
the proof engine by refutation.

- ``cpsat``: ``build_model`` builds the model of a ``LayoutRequest`` (rock booleans, slides,
  reachability layers, strong solvability, reversibility, exact min stops);
- ``symmetry``: the mirror images a request allows, which the model keeps one of;
- ``solve``: the solver's parameters, the solution callback, Ctrl-C, and the solve loop;
- ``loader``: OR-Tools' ``cp_model``, loaded without pandas (0.2 s less at every start);
- ``refute``: proofs by refutation: a counterexample loop on an incremental SAT solver
  (CaDiCaL), each failing layout explained by the compiled kernels (``Refuter``).
"""
