"""The annealing kernels (see ``designer.core.kernels`` for the two implementations): a chain over
a layout's rocks, snow and ends (``anneal_layout``), one over an open grid's compressed rows and
columns (``anneal_open``), and the choice figures of one layout (``choice_figures``)."""

from __future__ import annotations

import numpy as np

from designer.core.budget import add_work
from designer.core.kernel_jobs import AnnealJob
from designer.core.kernels import (
    _NO_STOP,
    ANNEAL_CELL_SECONDS,
    ROOM_SCORES,
    _compiled,
    _index,
    _indices,
    _mask,
    _route_table,
    _terrain,
    implementation,
)


def can_anneal() -> bool:
    """Whether ``anneal_layout`` can run: it is compiled code only (a chain lives on millions of
    cheap steps; in Python the climb does better), so not on the Python twin."""
    return implementation() == "compiled"


def _check_state(arrays) -> None:
    """A chain's state arrays (name, array, dtype, shape): C writes them in place, so each must be
    a writable, C-contiguous array of exactly that dtype and shape, or a ValueError."""
    for name, array, dtype, shape in arrays:
        if (
            not isinstance(array, np.ndarray)
            or array.dtype != dtype
            or array.shape != shape
            or not array.flags.c_contiguous
            or not array.flags.writeable
        ):
            raise ValueError(
                f"{name} must be a writable {np.dtype(dtype).name} array of shape {shape}"
            )


def _schedule(stop, heat_hi: float, heat_lo: float, steps: int) -> np.ndarray:
    """A chain call's stop flag (an int32 array of 1; None: never set), heats and step count
    checked; the flag to pass on."""
    if stop is not None and (
        not isinstance(stop, np.ndarray) or stop.dtype != np.int32 or stop.shape != (1,)
    ):
        raise ValueError("stop must be an int32 array of 1")
    if not (heat_hi > 0 and heat_lo > 0) or steps < 0:
        raise ValueError("heats must be positive and steps at least 0")
    return _NO_STOP if stop is None else stop


#: What an annealing chain's score counts: min stops, the options along the printed solution, or
#: the decisions along it (options a stop less the share of rail stops, in thousandths).
OBJECTIVES = ("stops", "options", "decisions")


#: The decisions score of a layout that meets its floor of min stops is this plus its figure; one
#: short of the floor scores below it (the chain passes through it, never keeps it as its best).
DECISIONS_MET = 10000


def anneal_layout(
    terrain: np.ndarray,
    free,
    starts,
    goals,
    max_rocks: int | None,
    max_stops: int | None,
    ends: np.ndarray,
    score: np.ndarray,
    rng_state: np.ndarray,
    heat_hi: float,
    heat_lo: float,
    steps: int,
    target: int | None,
    stop: np.ndarray | None,
    best_terrain: np.ndarray,
    best: np.ndarray,
    *,
    min_stops: int | None = None,
    min_options: int | None = None,
    unique: bool = False,
    objective: str = "stops",
    routes=None,
    room_score: str = "sum",
) -> int:
    """Run ``steps`` simulated-annealing steps of one chain (compiled only: see ``can_anneal``).

    The chain's state is updated in place: ``terrain`` (H, W uint8, frame rocks included),
    ``ends`` (int32 [start, goal], flat), ``score`` (int32 [min stops], -1: to compute) and
    ``rng_state`` (uint64 [1]); the best layout seen goes to ``best_terrain`` and ``best`` (int32
    [stops, start, goal]) when it beats ``best[0]``. A move toggles a cell of ``free`` (H, W
    mask), moves a rock, or moves the start (among ``starts``) or the goal (among ``goals``,
    flat indices); only strong, reversible layouts with at most ``max_rocks`` rocks on free cells
    and at most ``max_stops`` stops are kept. The heat falls from ``heat_hi`` to ``heat_lo``.
    Returns the steps taken (fewer when ``target`` stops are reached or ``stop[0]`` is set).

    Choices: with ``objective="options"`` the score (and ``target``, ``best[0]``) counts the
    options along the printed solution instead of stops (see ``choice_figures``); with
    ``objective="decisions"``, the options a stop less the share of rail stops, in thousandths
    (``designer.search.decisions``), plus ``DECISIONS_MET`` when the layout has ``min_stops``
    (one short of them is kept by the chain below ``DECISIONS_MET``, never as its best); ``min_stops``,
    ``min_options`` and ``unique`` (exactly one fewest-moves solution) are further conditions a
    kept layout must meet.

    A room: ``routes``, rows of [door a, door b, floor, ceiling (None or -1: none)] (flat
    indices), each route strong, reversible and under its ceiling, the score ``room_score``'s
    (``ROOM_SCORES``; ``objective`` and the choice conditions then do not apply); the start and
    goal are then the first route's doors, and the doors ice in ``terrain``."""
    if not can_anneal():
        raise RuntimeError("anneal_layout needs the compiled kernels")
    grid = _terrain(terrain, 2)
    if grid is not terrain or not terrain.flags.writeable:
        raise ValueError(
            "terrain must be a writable, C-contiguous uint8 array (it is updated in place)"
        )
    h, w = grid.shape
    n = h * w
    free_mask = _mask("free", free, h, w)
    start_cells = _indices(starts, n, "start cells").astype(np.int32)
    goal_cells = _indices(goals, n, "goal cells").astype(np.int32)
    if not start_cells.size or not goal_cells.size:
        raise ValueError("the start and the goal need at least one cell each")
    _check_state(
        (
            ("ends", ends, np.int32, (2,)),
            ("score", score, np.int32, (1,)),
            ("rng_state", rng_state, np.uint64, (1,)),
            ("best", best, np.int32, (3,)),
            ("best_terrain", best_terrain, np.uint8, (h, w)),
        )
    )
    _index(ends[0], n, "start")
    _index(ends[1], n, "goal")
    if ends[0] == ends[1]:
        raise ValueError("the start and goal must differ")
    flag = _schedule(stop, heat_hi, heat_lo, steps)
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
    bounds = [
        _bound(name, value)
        for name, value in (
            ("max_rocks", max_rocks),
            ("max_stops", max_stops),
            ("target", target),
            ("min_stops", min_stops),
            ("min_options", min_options),
        )
    ]
    if room_score not in ROOM_SCORES:
        raise ValueError(f"room_score must be one of {ROOM_SCORES}, not {room_score!r}")
    table = _route_table(routes, n)
    job = AnnealJob(
        terrain=grid,
        h=h,
        w=w,
        free=free_mask,
        starts=start_cells,
        goals=goal_cells,
        max_rocks=bounds[0],
        max_stops=bounds[1],
        ends=ends,
        score=score,
        rng=rng_state,
        heat_hi=float(heat_hi),
        heat_lo=float(heat_lo),
        steps=int(steps),
        target=bounds[2],
        stop=flag,
        best_terrain=best_terrain,
        best=best,
        min_stops=bounds[3],
        min_options=bounds[4],
        unique=int(bool(unique)),
        objective=OBJECTIVES.index(objective),
        routes=table,
        room_mode=ROOM_SCORES.index(room_score),
    )
    taken = _compiled.anneal_layout(job)
    add_work(taken * n * max(1, len(table)) * ANNEAL_CELL_SECONDS)
    return taken


def _bound(name: str, value: int | None) -> int:
    """An optional bound for C: -1 for None, else a whole number from 0 to 2**31 - 1."""
    if value is None:
        return -1
    if not 0 <= int(value) < 2**31:
        raise ValueError(f"{name} must be from 0 to 2**31 - 1, not {value}")
    return int(value)


def choice_figures(terrain, start: int, goal: int) -> tuple[int, int, int]:
    """The choices along the printed solution of one level (compiled only: see ``can_anneal``):
    (options, rail stops, fewest-moves solutions counted up to 2); options is -1 when the goal
    cannot be reached. ``start`` and ``goal`` are flat indices, and their cells are taken as
    they are in ``terrain``. The networkx analysis (``designer.analysis.graph``) computes the same
    figures; the tests hold the two equal."""
    if not can_anneal():
        raise RuntimeError("choice_figures needs the compiled kernels")
    grid = _terrain(terrain, 2)
    h, w = grid.shape
    start, goal = _index(start, h * w, "start"), _index(goal, h * w, "goal")
    if start == goal:
        raise ValueError("the start and goal must differ")
    return _compiled.choice_figures(grid, h, w, start, goal)


def anneal_open(
    terrain: np.ndarray,
    dims: np.ndarray,
    height: int,
    width: int,
    goal: np.ndarray,
    score: np.ndarray,
    rng_state: np.ndarray,
    heat_hi: float,
    heat_lo: float,
    steps: int,
    target: int | None,
    stop: np.ndarray | None,
    best_terrain: np.ndarray,
    best: np.ndarray,
) -> int:
    """Run ``steps`` steps of one open-grid annealing chain (``designer.search.engines.opengrid``; compiled only,
    see ``can_anneal``), updating its state in place: ``terrain`` (uint8, ``height * width``
    long, holding a ``dims[0]`` x ``dims[1]`` compressed terrain row by row), ``dims`` (int32
    [h, w]), ``goal`` (int32 [row, column], -1 -1 for none), ``score`` (int32 [stops]) and
    ``rng_state`` (uint64 [1]). The chain's best goes to ``best_terrain`` and ``best`` (int32
    [stops, h, w, flat start, flat goal]) when it beats ``best[0]``. Returns the steps taken
    (fewer when ``target`` is reached or ``stop[0]`` is set)."""
    if not can_anneal():
        raise RuntimeError("anneal_open needs the compiled kernels")
    height, width = int(height), int(width)
    if height < 1 or width < 1:
        raise ValueError("the grid needs at least one row and one column")
    cap = height * width
    _check_state(
        (
            ("terrain", terrain, np.uint8, (cap,)),
            ("best_terrain", best_terrain, np.uint8, (cap,)),
            ("dims", dims, np.int32, (2,)),
            ("goal", goal, np.int32, (2,)),
            ("score", score, np.int32, (1,)),
            ("rng_state", rng_state, np.uint64, (1,)),
            ("best", best, np.int32, (5,)),
        )
    )
    if not (1 <= dims[0] <= height and 1 <= dims[1] <= width):
        raise ValueError(f"dims {tuple(dims)} must lie within {height}x{width}")
    if terrain.max() > 2:
        raise ValueError("terrain codes must be 0 (ice), 1 (rock) or 2 (snow)")
    if not (goal[0] == -1 or (0 <= goal[0] < dims[0] and 0 <= goal[1] < dims[1])):
        raise ValueError("the goal must lie on the terrain (or be -1)")
    if best[0] >= 0 and not (1 <= best[1] <= height and 1 <= best[2] <= width):
        raise ValueError("the best terrain's size must lie within the grid")
    flag = _schedule(stop, heat_hi, heat_lo, steps)
    taken = _compiled.anneal_open(
        terrain,
        dims,
        height,
        width,
        goal,
        score,
        rng_state,
        float(heat_hi),
        float(heat_lo),
        int(steps),
        -1 if target is None else int(target),
        flag,
        best_terrain,
        best,
    )
    add_work(taken * height * width * ANNEAL_CELL_SECONDS)
    return taken
