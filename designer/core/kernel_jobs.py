"""The arguments of the kernels' two long calls, one value each: an exhaustive search over a
shard of layouts (``SearchJob``) and one annealing chain over whole layouts (``AnnealJob``).

The compiled kernels read each field by its name into the C struct of the same name and fields
(``designer/core/kernels.h``), and the Python twin reads the same value
(``designer.core._pykernels.exhaustive``): the arguments are written once, here, not as 17 or
24 positional ones in three places. ``designer.core.kernel_search`` and
``designer.core.kernel_anneal`` check every field before they build a job."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


def _no_routes() -> np.ndarray:
    return np.zeros((0, 4), np.int32)


@dataclass(frozen=True)
class SearchJob:
    """Every rock set of ``rocks`` free cells whose lowest is the ``first``-th (and next lowest
    the ``second``-th, unless it is -1), one per symmetry class, each with every allowed start
    and goal of at least ``threshold`` stops; a room (``routes``): its score by ``room_mode``."""

    base: np.ndarray  # uint8, h * w: the fixed terrain, ice on the free cells
    h: int
    w: int
    free_cells: np.ndarray  # int32: flat cells a rock may take (at most 64)
    start_ok: np.ndarray  # uint8, h * w: 1 where the start may go
    goal_ok: np.ndarray  # uint8, h * w: 1 where the goal may go
    syms: np.ndarray  # int32, nsyms x len(free_cells): maps of free-cell indices
    nsyms: int
    rocks: int
    first: int
    second: int  # -1: any
    threshold: int
    budget: float  # seconds of its own
    stop: np.ndarray  # int32[1]: set to 1 by another thread to give up
    routes: np.ndarray = field(default_factory=_no_routes)  # int32 rows [a, b, floor, ceiling]
    room_mode: int = 0  # an index of designer.core.kernels.ROOM_SCORES ("sum" or "min")
    cpu_clock: int = 0  # 1: the budget is the thread's processor time


@dataclass(frozen=True)
class AnnealJob:
    """One chain of ``steps`` annealing steps from ``terrain`` (in and out, with ``ends``,
    ``score`` and ``rng``); the best layout it meets goes to ``best_terrain`` and ``best``. The
    fields as ``designer.core.kernel_anneal.anneal_layout`` describes them, bounds of -1 for
    none, ``objective`` and ``room_mode`` as indices of its ``OBJECTIVES`` and ``ROOM_SCORES``."""

    terrain: np.ndarray  # uint8, h * w, in/out
    h: int
    w: int
    free: np.ndarray  # uint8, h * w: cells whose tile the chain chooses
    starts: np.ndarray  # int32: cells the start may take
    goals: np.ndarray  # int32: cells the goal may take
    max_rocks: int
    max_stops: int
    ends: np.ndarray  # int32[2], in/out: [start, goal]
    score: np.ndarray  # int32[1], in/out (-1: to compute)
    rng: np.ndarray  # uint64[1], in/out
    heat_hi: float
    heat_lo: float
    steps: int
    target: int
    stop: np.ndarray  # int32[1]
    best_terrain: np.ndarray  # uint8, h * w, out
    best: np.ndarray  # int32[3], in/out: [score, start, goal]
    min_stops: int
    min_options: int
    unique: int
    objective: int
    routes: np.ndarray  # int32 rows [a, b, floor, ceiling]: a room's, none for a level
    room_mode: int


@dataclass(frozen=True)
class PlayerJob:
    """``runs`` runs of one member of the player family on a chain of ``n`` stops
    (``designer/core/kernels_player.c`` says what each table holds); the runs' moves and
    restarts go to ``moves`` and ``restarts``, each stop's rests are added to ``visits``. With
    guesses at the moves left (``value``), each run's controls go to ``control``; with ``counts``,
    what followed each rest is added to it; with ``basis`` (no guesses, at most ``BASIS_MOST``
    stops), each run's control of every (stop, last move) alone goes to it
    (``designer/core/kernels_player.c``); empty: none."""

    n: int
    next: np.ndarray  # int32, n * 4: the stop each move ends on; -1 exit, -2 trap, -3 no move
    weight: np.ndarray  # float64, n * 5 * 4: each move's weight after each last move
    sight: np.ndarray  # uint8, n: the move onto the exit, or 4
    give_up: np.ndarray  # float64, at least 1: the chance to give up after k stale moves
    novelty: float  # the factor of a move onto a stop not seen this attempt
    variety: float  # the factor of a move not yet made from its stop this attempt
    lapse: float
    notice: float  # the chance to take the move onto the exit in sight
    start: int
    runs: int
    cap: int  # the most moves of one run
    seed: int  # 0 .. 2**63 - 1
    moves: np.ndarray  # int64, runs: out
    restarts: np.ndarray  # int64, runs: out
    visits: np.ndarray  # float64, n: added to
    #: float64, (guesses, n, 5): each guess at the moves left on arriving at each stop by each move
    value: np.ndarray = field(default_factory=lambda: np.zeros(0))
    #: float64, (runs, guesses): out
    control: np.ndarray = field(default_factory=lambda: np.zeros(0))
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0))  # float64, (n, 5, 6): added to
    basis: np.ndarray = field(default_factory=lambda: np.zeros(0))  # float64, (runs, n, 5): out
