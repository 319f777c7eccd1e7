"""The kernels (slide table, reachability, batch classifier, exhaustive search), guarded.

Two implementations sit behind this module: the compiled one (``_kernels.c``, built at install
when a C compiler is there) and a numpy/Python twin (``_pykernels``) with the same functions and
results, used when the compiled module is missing. Everything else in the project calls the
kernels through here, and every index, length and value is checked here, before C sees it: a
bad argument is a ValueError, never a write outside a buffer.

``implementation()`` names the one in use; ``use(name)`` switches (the tests run both); the
environment variable ``DESIGNER_KERNELS=python`` forces the twin.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

import numpy as np

from designer.core import _pykernels
from designer.core.budget import add_work

try:
    from designer.core import _kernels as _compiled  # type: ignore[attr-defined]  # the C extension
except ImportError:  # built without a compiler, or a checkout that was never built
    _compiled = None

MAX_FREE_CELLS = 64  # the exhaustive search keeps a rock set in 64 bits
#: The nominal seconds a layout's cell costs the batch classifier, and an annealing step's cell
#: (a room's: each route's), as the compiled kernels run them on the project's machine: what
#: they report to the work clock (``designer.core.budget.add_work``), whichever implementation
#: runs, so that the same search counts the same work.
CLASSIFY_CELL_SECONDS, ANNEAL_CELL_SECONDS = 40e-9, 15e-9
IMPLEMENTATIONS = {"compiled": _compiled, "python": _pykernels}

_active = _pykernels if (_compiled is None or os.environ.get("DESIGNER_KERNELS") == "python") else _compiled


_on_python_use = None  # called once, the first time the Python kernels run (see notify_python_use)


def notify_python_use(callback) -> None:
    """Have ``callback()`` called once, the first time a kernel runs on the Python twin (the
    command line prints its one-line note there, so that a refusal before any work stays one line)."""
    global _on_python_use
    _on_python_use = callback


def _impl():
    """The implementation to run now; the first Python run fires the notification."""
    global _on_python_use
    if _active is _pykernels and _on_python_use is not None:
        callback, _on_python_use = _on_python_use, None
        callback()
    return _active


def implementation() -> str:
    """``"compiled"`` or ``"python"``: the kernels in use."""
    return "compiled" if _active is _compiled else "python"


def why_python() -> str:
    """Why the Python kernels are the default here (for the command's one-line note)."""
    if _compiled is None:
        return "the compiled kernels were not built at install; see Kernels in the README"
    return "DESIGNER_KERNELS=python"


def available() -> list[str]:
    return [name for name, module in IMPLEMENTATIONS.items() if module is not None]


@contextmanager
def use(name: str):
    """Run a block with the named implementation (``"compiled"`` or ``"python"``)."""
    global _active
    module = IMPLEMENTATIONS.get(name)
    if module is None:
        raise ValueError(f"kernels {name!r} are not available here (available: {', '.join(available())})")
    before, _active = _active, module
    try:
        yield
    finally:
        _active = before


# --- checks -------------------------------------------------------------------------------------

def _terrain(terrain, ndim: int) -> np.ndarray:
    grid = np.ascontiguousarray(terrain, dtype=np.uint8)
    if grid.ndim != ndim or 0 in grid.shape[-2:]:  # a batch (3-D) may hold no level
        raise ValueError(f"terrain must be a non-empty {ndim}-D array, not of shape {grid.shape}")
    if grid.size and grid.max() > 2:
        raise ValueError("terrain codes must be 0 (ice), 1 (rock) or 2 (snow)")
    return grid


def _index(value, n: int, what: str, allow_none: bool = False) -> int:
    index = int(value)
    low = -1 if allow_none else 0
    if not low <= index < n:
        raise ValueError(f"{what} {index} is outside 0..{n - 1}" + (" (or -1)" if allow_none else ""))
    return index


def _indices(values, n: int, what: str) -> np.ndarray:
    array = np.ascontiguousarray(values, dtype=np.int64).reshape(-1)
    if array.size == 1:  # the common single-level call: plain ints are quicker than reductions
        if not 0 <= int(array[0]) < n:
            raise ValueError(f"{what} must lie in 0..{n - 1}")
    elif array.size and (array.min() < 0 or array.max() >= n):
        raise ValueError(f"{what} must lie in 0..{n - 1}")
    return array


# --- the kernels --------------------------------------------------------------------------------

def slide_table(terrain, capture: int) -> tuple[np.ndarray, np.ndarray]:
    """``(dest, length)``, each (4, H*W) int32: where a slide from each cell in each direction
    (u, d, l, r) ends (-1: not a move) and how many cells it covers. ``capture`` (a flat index,
    or -1 for none) is the cell that stops a slide on it: the goal."""
    grid = _terrain(terrain, 2)
    h, w = grid.shape
    capture = _index(capture, h * w, "capture cell", allow_none=True)
    dest = np.empty((4, h * w), np.int32)
    length = np.empty((4, h * w), np.int32)
    _impl().slide_table(grid, h, w, capture, dest, length)
    return dest, length


def passage_table(terrain, floors, portal_of, capture: int) -> tuple[np.ndarray, np.ndarray]:
    """``(dest, length)`` as ``slide_table``, for a level with portals, floors or wrap-around:
    ``floors`` (k, 4) rows of (top, height, width, wrap bits: 1 left-right, 2 top-bottom), each
    inside the grid; ``portal_of`` (H*W) each cell's portal target, -1 where there is no portal."""
    grid = _terrain(terrain, 2)
    h, w = grid.shape
    n = h * w
    capture = _index(capture, n, "capture cell", allow_none=True)
    table = np.ascontiguousarray(floors, dtype=np.int32).reshape(-1, 4)
    if not len(table) or (table[:, 0] < 0).any() or (table[:, 1] < 1).any() or (table[:, 2] < 1).any() \
            or (table[:, 0] + table[:, 1] > h).any() or (table[:, 2] > w).any() or (table[:, 3] & ~3).any():
        raise ValueError("floors must be (top, height, width, wrap) rows inside the grid")
    targets = np.ascontiguousarray(portal_of, dtype=np.int32).reshape(-1)
    if targets.size != n or targets.min() < -1 or targets.max() >= n:
        raise ValueError(f"portal_of must hold {n} cells, each -1 or in 0..{n - 1}")
    dest = np.empty((4, n), np.int32)
    length = np.empty((4, n), np.int32)
    _impl().passage_table(grid, h, w, table, len(table), targets, capture, dest, length)
    # a slide that ends where it began (a portal back onto its own target, a round of a wrapping
    # line back to the snow it left) leaves the player where they are: no move (docs/spec.md)
    still = dest == np.arange(n, dtype=np.int32)
    dest[still], length[still] = -1, 0
    return dest, length


def _move_table(dest) -> tuple[np.ndarray, int]:
    """A move table (4, n) of cells or states as C reads it, checked, and its n."""
    table = np.ascontiguousarray(dest, dtype=np.int32)
    if table.ndim != 2 or table.shape[0] != 4 or table.shape[1] < 1:
        raise ValueError(f"dest must have shape (4, cells), not {table.shape}")
    n = table.shape[1]
    if table.min() < -1 or table.max() >= n:
        raise ValueError(f"dest holds a cell outside 0..{n - 1} (or -1 for no move)")
    return table, n


def reach(dest, start: int, goal: int) -> tuple[np.ndarray, np.ndarray]:
    """Stops from ``start`` to every cell (-1 where unreachable), and the reached cells in
    breadth-first order. The goal (or -1 for none) ends the game: no move leaves it."""
    table, n = _move_table(dest)
    start = _index(start, n, "start")
    goal = _index(goal, n, "goal", allow_none=True)
    stops = np.empty(n, np.int32)
    order = np.empty(n, np.int32)
    count = _impl().reach(table, n, start, goal, stops, order)
    return stops, order[:count]


def all_reach_goal(dest, order, goal: int) -> bool:
    """Whether the goal can be reached from every cell (or state) of ``order`` by the moves of
    ``dest`` (4, n): no move leaves the goal. A backward search over the reversed moves."""
    table, n = _move_table(dest)
    cells = _indices(order, n, "order").astype(np.int32)
    goal = _index(goal, n, "goal")
    if not (cells == goal).any():  # the goal is not even among them (the backward search counts it)
        return False
    return bool(_impl().all_reach_goal(table, n, cells, len(cells), goal))


def classify_batch(terrains, starts, goals) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class codes (0 unsolvable, 1 weak, 2 strong), reversible flags and min stops (-1 when
    unsolvable) of a batch: ``terrains`` (B, H, W), ``starts`` and ``goals`` (B,) flat indices."""
    grids = _terrain(terrains, 3)
    count, h, w = grids.shape
    starts = _indices(starts, h * w, "starts")
    goals = _indices(goals, h * w, "goals")
    if starts.size != count or goals.size != count:
        raise ValueError(f"{count} terrains need {count} starts and goals, not {starts.size} and {goals.size}")
    if (starts == goals).any():
        raise ValueError("a level's start and goal must differ")
    classes = np.empty(count, np.int8)
    reversible = np.empty(count, np.bool_)
    min_stops = np.empty(count, np.int32)
    _impl().classify_batch(grids, count, h, w, starts, goals, classes, reversible, min_stops)
    add_work(count * h * w * CLASSIFY_CELL_SECONDS)
    return classes, reversible, min_stops


def _mask(name: str, mask, h: int, w: int) -> np.ndarray:
    """A cell mask as a uint8 grid of the terrain's shape, or a ValueError."""
    array = np.ascontiguousarray(mask, dtype=np.uint8)
    if array.shape != (h, w):
        raise ValueError(f"{name} must have the grid's shape {(h, w)}, not {array.shape}")
    return array


def _endpoint_masks(start_ok, goal_ok, h: int, w: int) -> list[np.ndarray]:
    """The start and goal masks as uint8 grids of the terrain's shape, or a ValueError."""
    return [_mask("start_ok", start_ok, h, w), _mask("goal_ok", goal_ok, h, w)]


_NO_CELLS = np.zeros(0, np.int32)
_NO_STOP = np.zeros(1, np.int32)


def best_pair(terrain, start_ok, goal_ok, threshold: int) -> tuple[int, int, int]:
    """The best strong, reversible (start, goal) pair of one terrain with at least ``threshold``
    stops: (stops, flat start, flat goal), stops -1 when none; of the pairs with the most stops,
    the first in goal-then-start order. What the exhaustive search reports for a layout with no
    free cells; compiled, a search of its own that counts no ties and checks each goal's starts
    from the most stops down, so that it stops at the first strong, reversible one."""
    grid = _terrain(terrain, 2)
    h, w = grid.shape
    masks = _endpoint_masks(start_ok, goal_ok, h, w)
    impl = _impl()
    if impl is _compiled:  # the same answer with fewer checks: no ties to count
        return impl.best_pair(grid, h, w, masks[0], masks[1], int(threshold))
    best, _, _, start, goal, _, _ = impl.exhaustive(grid, h, w, _NO_CELLS, masks[0], masks[1], _NO_CELLS, 0, 0, 0,
                                                    -1, int(threshold), 3600.0, _NO_STOP)
    return int(best), int(start), int(goal)


def exhaustive(base, free_cells, start_ok, goal_ok, syms, rocks: int, first: int, threshold: int,
               budget: float, stop: np.ndarray | None = None, second: int = -1, routes=None,
               room_score: str = "sum", cpu_clock: bool = False) -> tuple[int, int, int, int, int, int, bool]:
    """Search every rock set of exactly ``rocks`` of the ``free_cells`` (flat indices into
    ``base``, at most 64) whose lowest is the ``first``-th (and, unless ``second`` is -1, whose
    next lowest is the ``second``-th: a finer shard), one per class of the symmetries
    ``syms`` (permutations of the free-cell indices), for strong, reversible (start, goal) pairs
    allowed by ``start_ok``/``goal_ok`` with at least ``threshold`` stops.

    ``budget`` is seconds from now (of this thread's processor time with ``cpu_clock``: a budget
    of work, ``designer.core.budget``); ``stop`` (a one-element int32 array) ends the search early
    when set to 1 from another thread. Returns (best, ties, mask, start, goal, layouts,
    complete): the best stops found (-1: none), how many triples reach it, an example (a bit mask
    over the free cells, and flat start and goal), the layouts evaluated, and whether the whole
    range was searched.

    A room: ``routes`` as for ``anneal_layout``, and each layout scored as one pair, the first
    route's doors, by ``room_score`` ("sum" or "min"; see ``ROOM_SCORES``).
    """
    grid = _terrain(base, 2)
    h, w = grid.shape
    n = h * w
    cells = _indices(free_cells, n, "free cells").astype(np.int32)
    nfree = cells.size
    if nfree > MAX_FREE_CELLS:
        raise ValueError(f"at most {MAX_FREE_CELLS} free cells, not {nfree}")
    if np.unique(cells).size != nfree:
        raise ValueError("free cells must be distinct")
    masks = _endpoint_masks(start_ok, goal_ok, h, w)
    perms = np.ascontiguousarray(syms, dtype=np.int32).reshape(-1, nfree) if nfree else np.zeros((0, 0), np.int32)
    if nfree and np.asarray(syms).size % nfree:
        raise ValueError("symmetries must be permutations of the free-cell indices")
    for perm in perms:
        if sorted(perm.tolist()) != list(range(nfree)):
            raise ValueError("symmetries must be permutations of the free-cell indices")
    rocks, first = int(rocks), int(first)
    if not 0 <= rocks <= nfree:
        raise ValueError(f"rocks {rocks} is outside 0..{nfree}")
    if rocks == 0 and first != 0:
        raise ValueError("with no rocks, first must be 0")
    if rocks > 0 and not 0 <= first <= nfree - rocks:
        raise ValueError(f"first {first} is outside 0..{nfree - rocks} for {rocks} rocks")
    second = int(second)
    if second != -1 and not (rocks >= 2 and first < second <= nfree - rocks + 1):
        raise ValueError(f"second {second} is outside {first + 1}..{nfree - rocks + 1} (or -1) for {rocks} rocks")
    budget = float(budget)
    if not budget >= 0:  # also refuses NaN
        raise ValueError(f"budget {budget} must be a number of seconds, at least 0")
    flag = np.zeros(1, np.int32) if stop is None else stop
    if not (isinstance(flag, np.ndarray) and flag.dtype == np.int32 and flag.shape == (1,) and flag.flags.c_contiguous):
        raise ValueError("stop must be a one-element int32 array")
    if room_score not in ROOM_SCORES[:2]:
        raise ValueError(f"room_score must be 'sum' or 'min', not {room_score!r}")
    best, ties, mask, start, goal, layouts, complete = _impl().exhaustive(
        grid, h, w, cells, masks[0], masks[1], perms.reshape(-1), len(perms), rocks, first, second, int(threshold),
        budget, flag, _route_table(routes, n), ROOM_SCORES.index(room_score), int(bool(cpu_clock)))
    return int(best), int(ties), int(mask), int(start), int(goal), int(layouts), bool(complete)


def can_anneal() -> bool:
    """Whether ``anneal_layout`` can run: it is compiled code only (a chain lives on millions of
    cheap steps; in Python the climb does better), so not on the Python twin."""
    return _active is _compiled and _compiled is not None


def _check_state(arrays) -> None:
    """A chain's state arrays (name, array, dtype, shape): C writes them in place, so each must be
    a writable, C-contiguous array of exactly that dtype and shape, or a ValueError."""
    for name, array, dtype, shape in arrays:
        if not isinstance(array, np.ndarray) or array.dtype != dtype or array.shape != shape \
                or not array.flags.c_contiguous or not array.flags.writeable:
            raise ValueError(f"{name} must be a writable {np.dtype(dtype).name} array of shape {shape}")


def _schedule(stop, heat_hi: float, heat_lo: float, steps: int) -> np.ndarray:
    """A chain call's stop flag (an int32 array of 1; None: never set), heats and step count
    checked; the flag to pass on."""
    if stop is not None and (not isinstance(stop, np.ndarray) or stop.dtype != np.int32 or stop.shape != (1,)):
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
#: How a room's routes make one score (``designer.search.engines.rooms``): the sum over routes of
#: min(stops, floor), the shortest route, or (every floor met) the fewest options along any
#: route, or a stop in thousandths.
ROOM_SCORES = ("sum", "min", "options", "per_stop")
_NO_ROUTES = np.zeros((0, 4), np.int32)


def anneal_layout(terrain: np.ndarray, free, starts, goals, max_rocks: int | None, max_stops: int | None,
                  ends: np.ndarray, score: np.ndarray, rng_state: np.ndarray, heat_hi: float, heat_lo: float,
                  steps: int, target: int | None, stop: np.ndarray | None, best_terrain: np.ndarray,
                  best: np.ndarray, *, min_stops: int | None = None, min_options: int | None = None,
                  unique: bool = False, objective: str = "stops", routes=None, room_score: str = "sum") -> int:
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
        raise ValueError("terrain must be a writable, C-contiguous uint8 array (it is updated in place)")
    h, w = grid.shape
    n = h * w
    free_mask = _mask("free", free, h, w)
    start_cells = _indices(starts, n, "start cells").astype(np.int32)
    goal_cells = _indices(goals, n, "goal cells").astype(np.int32)
    if not start_cells.size or not goal_cells.size:
        raise ValueError("the start and the goal need at least one cell each")
    _check_state((("ends", ends, np.int32, (2,)), ("score", score, np.int32, (1,)),
                  ("rng_state", rng_state, np.uint64, (1,)), ("best", best, np.int32, (3,)),
                  ("best_terrain", best_terrain, np.uint8, (h, w))))
    _index(ends[0], n, "start")
    _index(ends[1], n, "goal")
    if ends[0] == ends[1]:
        raise ValueError("the start and goal must differ")
    flag = _schedule(stop, heat_hi, heat_lo, steps)
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {OBJECTIVES}, not {objective!r}")
    bounds = [_bound(name, value) for name, value in (("max_rocks", max_rocks), ("max_stops", max_stops),
                                                      ("target", target), ("min_stops", min_stops),
                                                      ("min_options", min_options))]
    if room_score not in ROOM_SCORES:
        raise ValueError(f"room_score must be one of {ROOM_SCORES}, not {room_score!r}")
    table = _route_table(routes, n)
    taken = _compiled.anneal_layout(grid, h, w, free_mask, start_cells, goal_cells, bounds[0], bounds[1], ends, score,
                                    rng_state, float(heat_hi), float(heat_lo), int(steps), bounds[2], flag,
                                    best_terrain, best, bounds[3], bounds[4], int(bool(unique)),
                                    OBJECTIVES.index(objective), table, ROOM_SCORES.index(room_score))
    add_work(taken * n * max(1, len(table)) * ANNEAL_CELL_SECONDS)
    return taken


def _route_table(routes, n: int) -> np.ndarray:
    """A room's routes for C: int32 rows [door a, door b, floor, ceiling (-1: none)], checked;
    none (a level) for None."""
    if routes is None:
        return _NO_ROUTES
    table = np.array([[a, b, floor, -1 if ceiling is None else ceiling] for a, b, floor, ceiling in routes],
                     np.int32).reshape(-1, 4)
    for a, b, floor, _ in table.tolist():
        _index(a, n, "a route's door")
        _index(b, n, "a route's door")
        if a == b or floor < 0:
            raise ValueError("a route runs between two doors, with a floor from 0")
    return table


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


def anneal_open(terrain: np.ndarray, dims: np.ndarray, height: int, width: int, goal: np.ndarray, score: np.ndarray,
                rng_state: np.ndarray, heat_hi: float, heat_lo: float, steps: int, target: int | None,
                stop: np.ndarray | None, best_terrain: np.ndarray, best: np.ndarray) -> int:
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
    _check_state((("terrain", terrain, np.uint8, (cap,)), ("best_terrain", best_terrain, np.uint8, (cap,)),
                  ("dims", dims, np.int32, (2,)), ("goal", goal, np.int32, (2,)), ("score", score, np.int32, (1,)),
                  ("rng_state", rng_state, np.uint64, (1,)), ("best", best, np.int32, (5,))))
    if not (1 <= dims[0] <= height and 1 <= dims[1] <= width):
        raise ValueError(f"dims {tuple(dims)} must lie within {height}x{width}")
    if terrain.max() > 2:
        raise ValueError("terrain codes must be 0 (ice), 1 (rock) or 2 (snow)")
    if not (goal[0] == -1 or (0 <= goal[0] < dims[0] and 0 <= goal[1] < dims[1])):
        raise ValueError("the goal must lie on the terrain (or be -1)")
    if best[0] >= 0 and not (1 <= best[1] <= height and 1 <= best[2] <= width):
        raise ValueError("the best terrain's size must lie within the grid")
    flag = _schedule(stop, heat_hi, heat_lo, steps)
    taken = _compiled.anneal_open(terrain, dims, height, width, goal, score, rng_state, float(heat_hi),
                                  float(heat_lo), int(steps), -1 if target is None else int(target), flag,
                                  best_terrain, best)
    add_work(taken * height * width * ANNEAL_CELL_SECONDS)
    return taken
