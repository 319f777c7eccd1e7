"""Exhaustive search over small layout spaces: the proof engine for tiny grids.

Every rock set of up to ``max_rocks`` free cells is visited once per symmetry class (mirror
images have the same min stops), and for each, every allowed (start, goal) pair is checked in
compiled code: min stops by a backward search from the goal, then strong solvability and
reversibility for the pairs that reach the bar. When the search completes, its best is proven
optimal and anything above it proven impossible.

It applies where the free cells fit in 64 bits, a rock budget is set, no snow is placed, and
every cell the start or goal may take is free or pinned (no frame, or pinned endpoints).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np

from designer.core import kernel_search, kernels
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.request_kinds import kernel_score, request_kind
from designer.core.space import LayoutSpace
from designer.core.terrain import ICE, ROCK
from designer.search.tuning import RATE_42_CELLS

MAX_FREE_CELLS = kernels.MAX_FREE_CELLS


@dataclass(frozen=True)
class ExhaustiveResult:
    best: int  # highest min stops found at or above the threshold (-1: none)
    level: Level | None  # one level that reaches it
    ties: int  # (layout, start, goal) triples seen at the best (a lower bound on their number)
    layouts: int  # rock sets evaluated (one per symmetry class)
    complete: bool  # the whole space was searched: ``best`` is optimal (none >= threshold if -1)


def applies(request: LayoutRequest) -> bool:
    """A rock budget, no snow to place, at most 64 free cells, and every cell an end may take
    already open (free, drawn ice, or pinned): frame gaps are not searched."""
    if (
        request.max_rocks is None
        or request.placed_snow()
        or len(request.free_cells()) > MAX_FREE_CELLS
    ):
        return False
    base = base_terrain(request)
    return all(base[c] != ROCK for c in request.start_cells() + request.goal_cells())


def layout_count(request: LayoutRequest) -> int:
    """Rock sets in the space (before symmetry)."""
    free = len(request.free_cells())
    assert request.max_rocks is not None  # the exhaustive search needs a rock budget (applies)
    return sum(math.comb(free, r) for r in range(min(request.max_rocks, free) + 1))


def _transforms(height: int, width: int):
    yield lambda r, c: (r, width - 1 - c)
    yield lambda r, c: (height - 1 - r, c)
    yield lambda r, c: (height - 1 - r, width - 1 - c)
    if height == width:
        yield lambda r, c: (c, r)
        yield lambda r, c: (width - 1 - c, height - 1 - r)
        yield lambda r, c: (c, height - 1 - r)
        yield lambda r, c: (width - 1 - c, r)


def symmetries(request: LayoutRequest, base: np.ndarray) -> list[list[int]]:
    """Permutations of free-cell indices under the grid symmetries that keep the space itself (a
    room's: none, its routes and bands being its own)."""
    if not request_kind(request).symmetric:
        return []
    free = request.free_cells()
    index = {cell: k for k, cell in enumerate(free)}
    starts, goals = set(request.start_cells()), set(request.goal_cells())
    cells = [(r, c) for r in range(request.height) for c in range(request.width)]
    found = []
    for f in _transforms(request.height, request.width):
        if {f(*c) for c in free} != set(free) or {f(*c) for c in starts} != starts:
            continue
        if {f(*c) for c in goals} != goals or any(base[f(*c)] != base[c] for c in cells):
            continue
        found.append([index[f(*cell)] for cell in free])
    return found


def estimated_seconds(request: LayoutRequest, workers: int) -> float:
    """A rough forecast of a complete search (the cost of a layout grows with cells squared)."""
    cells = request.height * request.width
    classes = layout_count(request) / (1 + len(symmetries(request, base_terrain(request))))
    # a room: each layout scored once per route
    routes = request_kind(request).route_count(request)
    return routes * classes * (cells / 42) ** 2 / RATE_42_CELLS / max(1, workers)


def base_terrain(request: LayoutRequest) -> np.ndarray:
    """The fixed terrain (frame rock, a template's tiles), ice on the free cells and pinned ends."""
    return LayoutSpace.of(request).base_terrain()


@dataclass(frozen=True)
class ShardJob:
    """One shard of an exhaustive search: the rock sets of one size whose lowest free cell is the
    ``first``-th and (with two rocks or more) the next lowest the ``second``-th (-1: any),
    searched for levels of at least ``bar`` stops until ``deadline``: wall-clock ``time.time()``,
    the search's budget converted where a job leaves the process, so that it means the same on
    every machine of a cluster."""

    rocks: int
    first: int
    second: int
    bar: int
    deadline: float
    base: np.ndarray
    free_flat: np.ndarray
    start_ok: np.ndarray
    goal_ok: np.ndarray
    syms: list
    routes: list | None = None  # a room's (see ``room_routes``)
    room_score: str = "sum"
    # in this process, on the cpu clock: the search's budget of work, which each shard reads as it
    # starts and spends as its thread's processor time (a cluster's shards keep the wall deadline)
    budget: Budget | None = None

    @property
    def key(self) -> tuple[int, int, int]:
        return self.rocks, self.first, self.second


def run_shard(job: ShardJob, stop: np.ndarray | None = None) -> tuple:
    """Search one shard: (stops, ties, rock mask, start, goal, layouts, complete), as
    ``kernel_search.exhaustive``. A plain function of its job, so it runs in a thread or on a worker."""
    seconds = job.deadline - time.time() if job.budget is None else job.budget.left()
    if seconds <= 0:
        return -1, 0, 0, 0, 0, 0, False
    return kernel_search.exhaustive(
        job.base,
        job.free_flat,
        job.start_ok,
        job.goal_ok,
        job.syms,
        job.rocks,
        job.first,
        job.bar,
        seconds,
        stop,
        second=job.second,
        routes=job.routes,
        room_score=job.room_score,
        cpu_clock=job.budget is not None,
    )


def room_routes(request: LayoutRequest) -> list | None:
    """A room's routes for the kernels (``RequestKind.kernel_routes``); None for a level."""
    return request_kind(request).kernel_routes(LayoutSpace.of(request))


def shard_keys(request: LayoutRequest) -> list[tuple[int, int, int]]:
    """The keys of the space's shards: (rocks, first free cell with a rock, second or -1)."""
    nfree = len(request.free_cells())
    assert request.max_rocks is not None  # the exhaustive search needs a rock budget (applies)
    rocks_max = min(request.max_rocks, nfree)
    keys = [(0, 0, -1)] + [(1, first, -1) for first in range(nfree) if rocks_max >= 1]
    keys += [
        (r, first, second)
        for r in range(2, rocks_max + 1)
        for first in range(nfree - r + 1)
        for second in range(first + 1, nfree - r + 2)
    ]
    return keys


def shard_jobs(
    request: LayoutRequest,
    threshold: int,
    budget: Budget,
    fewest_rocks: int = 0,
    maximizing: bool = False,
) -> list[ShardJob]:
    """Every shard of the space (its rock sets of at least ``fewest_rocks`` rocks), biggest
    first, each with the ``budget``'s deadline in wall-clock time. A room's ``threshold`` is its
    score's (``designer.search.engines.rooms``: the sum over routes when meeting, the shortest route when
    ``maximizing``)."""
    space = LayoutSpace.of(request)
    base = space.base_terrain()
    start_ok, goal_ok = space.endpoint_masks()
    free_flat = space.free.astype(np.int32)
    syms = symmetries(request, base)
    nfree = len(free_flat)
    deadline = budget.wall_deadline()
    keys = shard_keys(request)

    def size(key):  # rock sets in the shard
        rocks, first, second = key
        return (
            math.comb(nfree - first - 1, max(rocks - 1, 0))
            if second < 0
            else math.comb(nfree - second - 1, rocks - 2)
        )

    keys = [key for key in keys if key[0] >= fewest_rocks]
    keys.sort(key=lambda key: -size(key))
    routes, room_score = room_routes(request), kernel_score(maximizing)
    return [
        ShardJob(
            r,
            first,
            second,
            threshold,
            deadline,
            base,
            free_flat,
            start_ok,
            goal_ok,
            syms,
            routes,
            room_score,
        )
        for r, first, second in keys
    ]


def merge(request: LayoutRequest, results: dict[tuple[int, int, int], tuple]) -> ExhaustiveResult:
    """One result from the shards' results (by shard key), independent of the order they came in:
    the best stops, a level from the first shard (in key order) that reaches it, the ties at it."""
    space = LayoutSpace.of(request)
    layouts = sum(r[5] for r in results.values())
    complete = all(r[6] for r in results.values())
    best = max((r[0] for r in results.values()), default=-1)
    if best < 0:
        return ExhaustiveResult(-1, None, 0, layouts, complete)
    at_best = [key for key in sorted(results) if results[key][0] == best]
    stops, _, mask, start, goal, _, _ = results[at_best[0]]
    terrain = space.base_terrain().reshape(-1)
    for k, cell in enumerate(space.free):
        if mask >> k & 1:
            terrain[cell] = ROCK
    level = space.level(terrain, start, goal)
    return ExhaustiveResult(best, level, sum(results[key][1] for key in at_best), layouts, complete)


def search(
    request: LayoutRequest,
    threshold: int,
    budget: Budget,
    workers: int | None = None,
    on_best=None,
    first_only: bool = False,
    executor=None,
    done: dict | None = None,
    on_shard=None,
    fewest_rocks: int = 0,
    maximizing: bool = False,
) -> ExhaustiveResult:
    """Search the whole space for strong, reversible levels of at least ``threshold`` stops.

    The space splits into shards (``shard_jobs``) that run on ``executor`` (threads in this
    process by default; see ``designer.search.executor``) and merge into the same result whatever ran
    them. With ``fewest_rocks``, rock sets of fewer rocks are left out (a caller that has proven
    them short of the threshold). ``done`` holds shard results already known (by key, from a checkpoint): those shards
    are not run again. ``on_shard(key, result)`` is called as each shard finishes.

    Stops when ``budget`` is spent, with ``complete`` False; with
    ``first_only``, soon after the first level at the threshold is found (``complete`` False too).
    A room's threshold and best are its score's (``maximizing``: the shortest route's stops).
    """
    if not applies(request):
        raise ValueError("exhaustive search does not apply to this request")
    from designer.search.executor import InProcess

    executor = executor or InProcess(workers)
    results: dict[tuple[int, int, int], tuple] = dict(done or {})
    mine = budget if budget.clock == "cpu" and isinstance(executor, InProcess) else None
    jobs = [
        replace(job, budget=mine)
        for job in shard_jobs(request, threshold, budget, fewest_rocks, maximizing)
        if job.key not in results
    ]
    # set on Ctrl-C, an error, or (first_only) a hit: running kernels end at once
    stop = np.zeros(1, np.int32)
    best = [threshold - 1]

    def shard(job: ShardJob):
        if stop[0]:
            return -1, 0, 0, 0, 0, 0, False
        return run_shard(job, stop if isinstance(executor, InProcess) else None)

    def finished(job: ShardJob, result: tuple) -> None:
        results[job.key] = result
        if on_shard is not None:
            on_shard(job.key, result)
        if result[0] > best[0]:
            best[0] = result[0]
            if on_best:
                on_best(result[0])
            if first_only:
                stop[0] = 1

    try:
        executor.run(
            shard if isinstance(executor, InProcess) else run_shard,
            jobs,
            finished,
            on_abort=lambda: stop.__setitem__(0, 1),
        )
    except BaseException:
        stop[0] = 1
        raise
    return merge(request, results)  # a shard cut short (deadline, first_only) says so: incomplete


def search_around(
    request: LayoutRequest,
    level: Level,
    release: int,
    threshold: int,
    budget: Budget,
    rng: np.random.Generator,
    maximizing: bool = False,
) -> ExhaustiveResult:
    """An exact neighbourhood: keep all but ``release`` (random) rocks of ``level``, and search
    every way of placing up to ``release`` rocks (within the budget) with every start and goal
    (a room: scored over its routes, as ``search``)."""
    space = LayoutSpace.of(request)
    free = request.free_cells()
    rocks = [c for c in free if level.terrain[c] == ROCK]
    let_go = (
        {rocks[k] for k in rng.choice(len(rocks), min(release, len(rocks)), replace=False)}
        if rocks
        else set()
    )
    base = level.terrain.copy()
    for cell in let_go:
        base[cell] = ICE
    open_cells = [c for c in free if base[c] == ICE]
    allowed = (
        request.max_rocks - (len(rocks) - len(let_go)) if request.max_rocks is not None else release
    )
    most = max(0, min(allowed, len(let_go) + 1, len(open_cells)))
    start_ok, goal_ok = space.endpoint_masks()
    cells = space.flat(open_cells).astype(np.int32)
    best, hit, layouts, complete = threshold - 1, None, 0, True
    tasks = [(0, 0)] + [
        (r, first) for r in range(1, most + 1) for first in range(len(open_cells) - r + 1)
    ]
    routes, room_score = room_routes(request), kernel_score(maximizing)
    for rocks_placed, first in tasks:
        if budget.expired():
            complete = False
            break
        stops, _, mask, start, goal, count, done = kernel_search.exhaustive(
            base,
            cells,
            start_ok,
            goal_ok,
            [],
            rocks_placed,
            first,
            max(threshold, best),
            budget.left(),
            routes=routes,
            room_score=room_score,
            cpu_clock=budget.clock == "cpu",
        )
        layouts += count
        complete &= bool(done)
        if stops > best or (stops >= 0 and hit is None):
            terrain = base.copy()
            for k in range(len(open_cells)):
                if mask >> k & 1:
                    terrain[open_cells[k]] = ROCK
            best, hit = stops, space.level(terrain, start, goal)
    return ExhaustiveResult(best if hit is not None else -1, hit, 0, layouts, complete)
