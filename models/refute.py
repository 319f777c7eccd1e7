"""Proofs by refutation: a counterexample loop on an incremental SAT solver.

The model poses no distances at all. An incremental SAT solver (CaDiCaL, through python-sat, kept
between calls) holds one boolean per free cell, rock or ice, and the clauses learned so far. Each
round it proposes a layout; the game is played on it (``designer.core.explain.refute_checker``,
compiled); a layout that fails teaches the solver why, as a clause: the negation of literals of
the layout that force the failure in every layout that keeps them:

- **short**: a way of fewer than K moves, the one with the fewest literals (the cells each slide
  enters stay ice, the rock that stops it stays rock);
- **trap** (weak, or unsolvable): a way to a cell t plus literals that keep the goal out of the
  cells t *may* reach, a cell nothing fixes counting as rock and as ice at once; shrunk by
  dropping literals while the goal stays out;
- **back** (not reversible): the same for the swapped level, from the goal to the start.

The loop ends when the solver has no layout left (a proof: no level of K stops exists with these
ends) or a layout passes every route (a witness, which the caller verifies). Every clause learned
stays true when K rises, so ``Refuter.raise_floor`` keeps them all, which is what maximizing
needs.

A ``Refuter`` serves one set of routes over one set of rocks: one start and goal pair of a
request, or a room's doors, each route checked. ``declines(request)`` says what it cannot serve.

>>> from designer.core.request import LayoutRequest
>>> from designer.core.budget import Budget
>>> from designer.analysis.classify import classify
>>> refuter = Refuter(LayoutRequest(5, 5, min_stops=4), [((4, 1), (0, 1), 4)])
>>> found = refuter.run(Budget(10))
>>> found.verdict, classify(found.level).min_stops >= 4
('witness', True)
>>> refuter.raise_floor(9)
>>> refuter.run(Budget(10)).verdict
'proof'
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from designer.core import explain
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.terrain import ICE, ROCK, Cell

#: The SAT solver (python-sat's name for CaDiCaL 1.9.5): Glucose and MiniSat were 3-5x slower.
SOLVER = "cadical195"

#: Conflicts the solver may spend in one call before the loop looks at the clock again (a call
#: of the loop takes a few on average; the last, the proof, may take millions).
CONFLICTS = 1_000

#: The kinds of explanation, by the kernels' code.
KINDS = ("short", "trap", "back")

#: Room in the buffer the kernels write an explanation to (entries).
OUT = 4 + 1600


def declines(request: LayoutRequest) -> str | None:
    """Why the loop cannot serve ``request`` (None: it can)."""
    if request.item_count or request.teleports or request.floors or request.portals:
        return "items, portals and floors are not played by its checker"
    if request.placed_snow():
        return "it places no snow"
    if request.tidy:
        return "it does not check --tidy"
    if request.asks_for_choices:
        return "it does not count choices"
    bands = request.route_bands if request.is_room else ()
    if request.max_stops is not None or any(band.max_stops is not None for band in bands):
        return "a ceiling on min stops (--max-stops) has no short explanation"
    if request.height * request.width > 1600:
        return "the grid is larger than 40x40"
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return "python-sat is not installed (pip install python-sat)"
    return None


class _NeverMain:
    """What python-sat is told about threads (``_keep_sigint``)."""

    @staticmethod
    def check() -> bool:
        return False


def _keep_sigint() -> None:
    """python-sat takes SIGINT over for each solver call made from the main thread, and when a
    Ctrl-C lands in a call it jumps out of the solver and leaves its own handler behind: the
    designer's handler is lost, and a lane that ignores Ctrl-C (its parent ends it) dies at the
    next one. The loop's calls are short (``CONFLICTS``) and it looks at its budget between them,
    which a Ctrl-C ends, so python-sat is told that no call is made from the main thread, and
    SIGINT stays with the handler Python has for it."""
    import pysat.solvers

    pysat.solvers.MainThread = _NeverMain


@dataclass
class RefuteOutcome:
    """How a run ended: ``verdict`` is "witness" (``level`` passes every route), "proof" (no
    layout left) or "time" (the budget ran out). ``rounds``: layouts proposed; ``learned``: the
    clauses learned, by kind."""

    verdict: str
    level: Level | None = None
    rounds: int = 0
    learned: dict = field(default_factory=dict)


class Refuter:
    """One incremental solver for ``routes`` ((start, goal, K) each) over the request's free cells.

    Each free cell of the request is variable 1 + its index in ``request.free_cells()``; an end
    on a free cell is ice. A cell the request fixes keeps its tile, and a frame's cell that is an
    end is ice. ``max_rocks`` is a cardinality constraint on the free cells."""

    def __init__(self, request: LayoutRequest, routes: list[tuple[Cell, Cell, int]]):
        from pysat.solvers import Solver

        _keep_sigint()
        self.request = request
        h, w = request.height, request.width
        self.free = request.free_cells()
        ends = {cell for start, goal, _ in routes for cell in (start, goal)}
        self.base = np.array(request.fixed_grid(), np.int16)
        self.var = np.zeros((h, w), np.int32)
        for number, cell in enumerate(self.free, 1):
            self.var[cell] = number
        self.units = [int(self.var[cell]) for cell in ends if self.var[cell]]
        for cell in ends:
            self.base[cell], self.var[cell] = ICE, 0
        self.base = np.where(self.base < 0, ICE, self.base).astype(np.uint8)
        self.routes = np.array(
            [[s[0] * w + s[1], g[0] * w + g[1], k] for s, g, k in routes], np.int32
        )
        self.out = np.zeros(OUT, np.int32)
        self.check = explain.refute_checker(self.base, self.var, self.routes)
        self.rounds = 0
        self.learned = {kind: 0 for kind in KINDS}
        self.solver = Solver(name=SOLVER)
        for v in self.units:
            self.solver.add_clause([-v])
        if request.max_rocks is not None and self.free:
            from pysat.card import CardEnc, EncType

            lits = [int(v) for v in self.var.reshape(-1) if v]
            if request.max_rocks < len(lits):
                cards = CardEnc.atmost(
                    lits,
                    bound=request.max_rocks,
                    top_id=len(self.free),
                    encoding=EncType.seqcounter,
                )
                for clause in cards.clauses:
                    self.solver.add_clause(clause)

    def raise_floor(self, floor: int, route: int | None = None) -> None:
        """Ask for at least ``floor`` stops (on ``route``, or every route); every clause learned
        stays valid, since a short way stays short."""
        if route is None:
            self.routes[:, 2] = floor
        else:
            self.routes[route, 2] = floor

    def exclude(self, terrain: np.ndarray) -> None:
        """Cut one layout off (a level excluded from a pack, or one the verifier refused)."""
        self.solver.add_clause(
            [-v if terrain[cell] == ROCK else v for cell in self.free if (v := int(self.var[cell]))]
        )

    def terrain(self, model: list[int]) -> np.ndarray:
        terrain = self.base.copy()
        for cell in self.free:
            v = int(self.var[cell])
            if v:
                terrain[cell] = ROCK if v <= len(model) and model[v - 1] > 0 else ICE
        return terrain

    def run(self, budget: Budget) -> RefuteOutcome:
        """Propose, play and learn until a witness, a proof or the end of ``budget``."""
        solver, out, check = self.solver, self.out, self.check
        while True:
            if budget.expired():
                return self._outcome("time")
            solver.conf_budget(CONFLICTS)
            answer = solver.solve_limited()
            if answer is None:  # the conflicts' budget is spent: look at the clock, then go on
                continue
            if not answer:
                return self._outcome("proof")
            self.rounds += 1
            model = solver.get_model()
            if check(model, out) < 0:
                start, goal = (divmod(int(cell), self.base.shape[1]) for cell in self.routes[0, :2])
                return self._outcome(
                    "witness", self.request.level(self.terrain(model), start, goal)
                )
            self.learned[KINDS[out[0]]] += 1
            solver.add_clause((-out[4 : 4 + out[3]]).tolist())

    def _outcome(self, verdict: str, level: Level | None = None) -> RefuteOutcome:
        return RefuteOutcome(verdict, level, self.rounds, dict(self.learned))

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> Refuter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
