"""The kernels (slide table, reachability, batch classifier, exhaustive search, the player
family's runs), guarded.

Two implementations sit behind this module: the compiled one (``_kernels.c``, built at install
when a C compiler is there) and a numpy/Python twin (``_pykernels``) with the same functions and
results, used when the compiled module is missing. Everything else in the project calls the
kernels through here, and every index, length and value is checked here, before C sees it: a
bad argument is a ValueError, never a write outside a buffer.

``implementation()`` names the one in use; ``use(name)`` switches (the tests run both); the
environment variable ``DESIGNER_KERNELS=python`` forces the twin.
"""

from __future__ import annotations

import functools
import math
import os
import threading
from contextlib import AbstractContextManager, contextmanager

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

_active = (
    _pykernels
    if (_compiled is None or os.environ.get("DESIGNER_KERNELS") == "python")
    else _compiled
)


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
        raise ValueError(
            f"kernels {name!r} are not available here (available: {', '.join(available())})"
        )
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
        raise ValueError(
            f"{what} {index} is outside 0..{n - 1}" + (" (or -1)" if allow_none else "")
        )
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
    if (
        not len(table)
        or (table[:, 0] < 0).any()
        or (table[:, 1] < 1).any()
        or (table[:, 2] < 1).any()
        or (table[:, 0] + table[:, 1] > h).any()
        or (table[:, 2] > w).any()
        or (table[:, 3] & ~3).any()
    ):
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
        raise ValueError(
            f"{count} terrains need {count} starts and goals, not {starts.size} and {goals.size}"
        )
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


#: How a room's routes make one score (``designer.search.engines.rooms``): the sum over routes of
#: min(stops, floor), the shortest route, or (every floor met) the fewest options along any
#: route, or a stop in thousandths.
ROOM_SCORES = ("sum", "min", "options", "per_stop")


_NO_ROUTES = np.zeros((0, 4), np.int32)


def _route_table(routes, n: int) -> np.ndarray:
    """A room's routes for C: int32 rows [door a, door b, floor, ceiling (-1: none)], checked;
    none (a level) for None."""
    if routes is None:
        return _NO_ROUTES
    table = np.array(
        [[a, b, floor, -1 if ceiling is None else ceiling] for a, b, floor, ceiling in routes],
        np.int32,
    ).reshape(-1, 4)
    for a, b, floor, _ in table.tolist():
        _index(a, n, "a route's door")
        _index(b, n, "a route's door")
        if a == b or floor < 0:
            raise ValueError("a route runs between two doors, with a floor from 0")
    return table


_NO_CELLS = np.zeros(0, np.int32)


_NO_STOP = np.zeros(1, np.int32)
#: The most guesses at the moves left one call of ``player_runs`` takes, and the most stops of a
#: call that sums each run's basis (kernels_player.c).
MOST_GUESSES, BASIS_MOST = 2, 64


def player_runs(*jobs) -> None:
    """The runs of each job (``designer.core.kernel_jobs.PlayerJob``: one member of the player
    family on one level) into its out arrays, each table checked first (ValueError). The jobs run
    side by side, one a core while cores are free (``side_by_side``): their out arrays must not
    overlap. A job's figures depend on it alone, never on how many ran at once."""
    for job in jobs:
        _check_player_job(job)
    implementation = _impl()
    side_by_side([lambda job=job: implementation.player_runs(job) for job in jobs])


def blas_alone() -> AbstractContextManager:
    """A context in which numpy's and scipy's BLAS work on the calling thread alone. OpenBLAS's
    worker threads spin for about a tenth of a second after a call they shared, on the cores the
    kernels' calls then run on beside it (``side_by_side``): a played-out figure's small fits
    between its batches would take the second core from its runs (measured: the seeker's first
    12x12 level after another member's fit, 102 to 116 ms, against 62 to 64 within this)."""
    return _blas().limit(limits=1, user_api="blas")


@functools.cache
def _blas():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def side_by_side(calls) -> None:
    """Each of ``calls`` (no arguments) made, those past the first on threads of their own, one a
    core this process may use (``os.sched_getaffinity``); the compiled kernels let go of the GIL,
    so the calls run at once. Every call is made; the first exception one raised is raised here,
    once all have ended."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    width = max(1, cores or 1)
    failed: list[BaseException] = []

    def guarded(call) -> None:
        try:
            call()
        except BaseException as error:  # raised again below, on the caller's thread
            failed.append(error)

    for wave in (calls[k : k + width] for k in range(0, len(calls), width)):
        threads = [threading.Thread(target=guarded, args=(call,)) for call in wave[1:]]
        for thread in threads:
            thread.start()
        guarded(wave[0])
        for thread in threads:
            thread.join()
    if failed:
        raise failed[0]


def _check_player_job(job) -> None:
    """ValueError unless every table of ``job`` is of the kind and size the kernel reads."""
    n = int(job.n)
    if n < 1 or not 0 <= int(job.start) < n or int(job.runs) < 0 or int(job.cap) < 1:
        raise ValueError("player_runs: bad stops, start, runs or cap")
    nxt, weight, sight, give_up = job.next, job.weight, job.sight, job.give_up
    shapes = (
        (nxt, np.int32, 4 * n),
        (weight, np.float64, 20 * n),
        (sight, np.uint8, n),
        (job.moves, np.int64, job.runs),
        (job.restarts, np.int64, job.runs),
        (job.visits, np.float64, n),
    )
    for array, kind, size in shapes:
        if array.dtype != kind or array.size != size or not array.flags.c_contiguous:
            raise ValueError("player_runs: a table of the wrong kind or size")
    if give_up.dtype != np.float64 or give_up.size < 1:
        raise ValueError("player_runs: the chances to give up are float64, at least one")
    if nxt.min() < -3 or nxt.max() >= n or not (nxt.reshape(n, 4) != -3).any(axis=1).all():
        raise ValueError("player_runs: a move to a stop out of range, or a stop with no move")
    if not (np.isfinite(weight).all() and weight.min() >= 0):
        raise ValueError("player_runs: a weight that is not a finite number of at least 0")
    open_weight = (weight.reshape(n, 5, 4) * (nxt.reshape(n, 1, 4) != -3)).sum(axis=2)
    if not (open_weight > 0).all():
        raise ValueError("player_runs: a stop whose open moves all weigh 0")
    onto = nxt.reshape(n, 4)[np.arange(n), np.minimum(sight, 3)]
    if sight.max() > 4 or ((sight < 4) & (onto != -1)).any():
        raise ValueError("player_runs: a sight that is no move onto the exit")
    chances = (give_up.min(), give_up.max(), job.lapse, job.notice)
    if not all(0 <= chance <= 1 for chance in chances):
        raise ValueError("player_runs: a chance outside 0..1")
    factors = (job.novelty, job.variety)
    if not (all(math.isfinite(x) and x >= 0 for x in factors) and 0 <= job.seed < 2**63):
        raise ValueError("player_runs: bad novelty, variety or seed")
    guesses, rest = divmod(job.value.size, 5 * n)
    outs = (
        (job.value, 5 * n * guesses),
        (job.control, job.runs * guesses),
        (job.basis, job.basis.size and 5 * n * job.runs),
    )
    if rest or guesses > MOST_GUESSES or job.counts.size not in (0, 30 * n):
        raise ValueError("player_runs: guesses, controls or counts of the wrong size")
    if job.basis.size and (guesses or n > BASIS_MOST):
        raise ValueError("player_runs: a basis beside guesses, or past 64 stops")
    for array, size in (*outs, (job.counts, job.counts.size)):
        if array.dtype != np.float64 or array.size != size or not array.flags.c_contiguous:
            raise ValueError("player_runs: a table of the wrong kind or size")
    if not np.isfinite(job.value).all():
        raise ValueError("player_runs: a guess that is not a finite number")
