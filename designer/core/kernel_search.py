"""The exhaustive search's kernels (see ``designer.core.kernels`` for the two implementations): every
rock set of a shard tried, each with every start and goal (``exhaustive``), and the best start and
goal of one layout (``best_pair``)."""

from __future__ import annotations

import numpy as np

from designer.core.kernel_jobs import SearchJob
from designer.core.kernels import (
    _NO_CELLS,
    _NO_STOP,
    MAX_FREE_CELLS,
    ROOM_SCORES,
    _compiled,
    _impl,
    _indices,
    _mask,
    _route_table,
    _terrain,
)


def _endpoint_masks(start_ok, goal_ok, h: int, w: int) -> list[np.ndarray]:
    """The start and goal masks as uint8 grids of the terrain's shape, or a ValueError."""
    return [_mask("start_ok", start_ok, h, w), _mask("goal_ok", goal_ok, h, w)]


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
    job = SearchJob(
        base=grid,
        h=h,
        w=w,
        free_cells=_NO_CELLS,
        start_ok=masks[0],
        goal_ok=masks[1],
        syms=_NO_CELLS,
        nsyms=0,
        rocks=0,
        first=0,
        second=-1,
        threshold=int(threshold),
        budget=3600.0,
        stop=_NO_STOP,
    )
    best, _, _, start, goal, _, _ = impl.exhaustive(job)
    return int(best), int(start), int(goal)


def exhaustive(
    base,
    free_cells,
    start_ok,
    goal_ok,
    syms,
    rocks: int,
    first: int,
    threshold: int,
    budget: float,
    stop: np.ndarray | None = None,
    second: int = -1,
    routes=None,
    room_score: str = "sum",
    cpu_clock: bool = False,
) -> tuple[int, int, int, int, int, int, bool]:
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
    perms = (
        np.ascontiguousarray(syms, dtype=np.int32).reshape(-1, nfree)
        if nfree
        else np.zeros((0, 0), np.int32)
    )
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
        raise ValueError(
            f"second {second} is outside {first + 1}..{nfree - rocks + 1} (or -1) for {rocks} rocks"
        )
    budget = float(budget)
    if not budget >= 0:  # also refuses NaN
        raise ValueError(f"budget {budget} must be a number of seconds, at least 0")
    flag = np.zeros(1, np.int32) if stop is None else stop
    if not (
        isinstance(flag, np.ndarray)
        and flag.dtype == np.int32
        and flag.shape == (1,)
        and flag.flags.c_contiguous
    ):
        raise ValueError("stop must be a one-element int32 array")
    if room_score not in ROOM_SCORES[:2]:
        raise ValueError(f"room_score must be 'sum' or 'min', not {room_score!r}")
    job = SearchJob(
        base=grid,
        h=h,
        w=w,
        free_cells=cells,
        start_ok=masks[0],
        goal_ok=masks[1],
        syms=perms.reshape(-1),
        nsyms=len(perms),
        rocks=rocks,
        first=first,
        second=second,
        threshold=int(threshold),
        budget=budget,
        stop=flag,
        routes=_route_table(routes, n),
        room_mode=ROOM_SCORES.index(room_score),
        cpu_clock=int(bool(cpu_clock)),
    )
    best, ties, mask, start, goal, layouts, complete = _impl().exhaustive(job)
    return int(best), int(ties), int(mask), int(start), int(goal), int(layouts), bool(complete)
