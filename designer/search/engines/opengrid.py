"""Open grids: a few rocks on a large grid with no frame, searched in compressed form.

On an open grid the player rests only beside a rock, at the edge, on the start or on the goal
(a slide stops at a rock, the edge, snow or the goal). So a rock-free row whose two neighbours
are rock-free too, and which holds neither end, is never rested on: removing it, or inserting
one more between two rock-free rows, leaves the move graph the same (the "abstracted puzzles"
of twanvl/ice-sliding-puzzle). The same holds for columns. A level on a 16x24 grid with eight
rocks is thus a level on a grid of about 11x14, and the search works there:

- ``compress`` removes such rows and columns; ``expand`` inserts them back, up to a given size
  (where the compressed level has two neighbouring rock-free rows and columns to insert between).
- ``best_ends`` scores a terrain by its best strong, reversible start and goal, every pair tried
  in compiled code (``kernel_search.exhaustive`` on a layout of no free cells).
- ``anneal`` is one simulated-annealing chain over compressed terrains: a rock moves within its
  row or column, or anywhere; a blank row or column is inserted or removed. Its grid never
  outgrows the requested one, and a terrain that could not be expanded to it scores nothing.
  Its steps run in compiled code (``kernel_anneal.anneal_open``) where the compiled kernels are, and
  in Python (the same algorithm) on the Python twin.
- ``search`` runs one chain per worker (forked processes on Linux: a chain is mostly Python
  between kernel calls), each with its own random stream drawn from the caller's, and returns the best level
  expanded to the full grid.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from designer.core import kernel_anneal, kernels
from designer.core.budget import Budget
from designer.core.control import end_with_parent
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.core.terrain import ICE, ROCK
from designer.search.engines.anneal import cooling
from designer.search.engines.compressed import best_ends, expand, expandable, rock_free_lines
from designer.search.tuning import ALONG_LINE, ANYWHERE, GOAL_SAMPLES, START_MARGIN
from designer.search.tuning import OPEN_COLD as COLD
from designer.search.tuning import OPEN_EPOCH_SECONDS as EPOCH_SECONDS
from designer.search.tuning import OPEN_HOT as HOT
from designer.search.tuning import OPEN_SLICE_STEPS as SLICE_STEPS

#: The search is used where the exhaustive search cannot go: more free cells than it takes.
MIN_CELLS = kernels.MAX_FREE_CELLS + 1


def applies(request: LayoutRequest) -> bool:
    """A rock budget on an open grid (no frame, template, snow, pinned end or stop band) too
    large for the exhaustive search."""
    return (
        request.max_rocks is not None
        and request.max_rocks > 0
        and not request.frame
        and request.template is None
        and not request.snow
        and request.start is None
        and request.goal is None
        and request.max_stops is None
        and request_kind(request).symmetric
        and request.height * request.width >= MIN_CELLS
    )


# --- compressing and expanding -----------------------------------------------------------------


# --- scoring -----------------------------------------------------------------------------------


# --- the search --------------------------------------------------------------------------------


@dataclass
class Found:
    """A chain's best: its min stops and the compressed level (None: nothing yet)."""

    stops: int = -1
    level: Level | None = None


def _first_terrain(rocks: int, height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    h, w = min(height, rocks + START_MARGIN[0]), min(width, rocks + START_MARGIN[1])
    terrain = np.zeros((h, w), np.uint8)
    terrain.reshape(-1)[rng.choice(h * w, min(rocks, h * w - 2), replace=False)] = ROCK
    return terrain


def _neighbour(
    terrain: np.ndarray, height: int, width: int, rng: np.random.Generator
) -> tuple[np.ndarray, tuple[int, int, int] | None] | None:
    """One random move (see the module docstring) and the line it inserted or removed (axis,
    index, +1 or -1; None for a rock move), or None when the drawn move does not apply."""
    u = rng.random()
    flat = terrain.reshape(-1)
    rocks = np.flatnonzero(flat == ROCK)
    if u < ALONG_LINE + ANYWHERE and len(rocks):
        moved = terrain.copy()
        k = int(rocks[rng.integers(len(rocks))])
        if u < ALONG_LINE:
            r, c = divmod(k, terrain.shape[1])
            if rng.random() < 0.5:
                r = int(rng.integers(terrain.shape[0]))
            else:
                c = int(rng.integers(terrain.shape[1]))
            target = r * terrain.shape[1] + c
        else:
            target = int(rng.integers(flat.size))  # a rock drawn here: no move
        if flat[target] != ICE:
            return None
        moved.reshape(-1)[k] = ICE
        moved.reshape(-1)[target] = ROCK
        return moved, None
    axis = int(rng.integers(2))
    size, limit = terrain.shape[axis], (height, width)[axis]
    if rng.random() < 0.5 and size < limit:
        at = int(rng.integers(size + 1))
        return np.insert(terrain, at, ICE, axis=axis), (axis, at, 1)
    blank = np.flatnonzero(rock_free_lines(terrain, axis))
    if size <= 2 or not len(blank):
        return None
    at = int(blank[rng.integers(len(blank))])
    return np.delete(terrain, at, axis=axis), (axis, at, -1)


def _moved_goal(
    goal: tuple[int, int] | None, change: tuple[int, int, int] | None
) -> tuple[int, int] | None:
    """Where the goal cell is after a move (None: its line was removed)."""
    if goal is None or change is None:
        return goal
    axis, at, delta = change
    cell = list(goal)
    if delta < 0 and cell[axis] == at:
        return None
    if cell[axis] >= at + (delta < 0):
        cell[axis] += delta
    return cell[0], cell[1]


def anneal(
    rocks: int,
    height: int,
    width: int,
    rng: np.random.Generator,
    budget: Budget,
    *,
    target: int | None = None,
    on_best: Callable[[int], None] | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> Found:
    """One annealing chain over compressed terrains of ``rocks`` rocks that expand to ``height``
    x ``width``, until ``budget`` is spent, ``target`` stops are reached, or ``stop()``.

    A move is scored with the goal among the current goal and a few random cells (a lower
    bound, ``GOAL_SAMPLES`` times cheaper than every cell); a terrain that beats the chain's best
    is scored again with every goal, so that the best is exact. The steps run in compiled code
    (``kernel_anneal.anneal_open``, the same algorithm) where it is there, in Python otherwise."""
    if kernel_anneal.can_anneal():
        return _anneal_compiled(rocks, height, width, rng, budget, target, on_best, stop)
    found = Found()
    terrain = _first_terrain(rocks, height, width, rng)
    score, goal = -1, None
    if expandable(terrain, height, width):
        score, _, flat_goal = best_ends(terrain)
        goal = divmod(flat_goal, terrain.shape[1]) if score >= 0 else None

    def reheat() -> float | None:  # from the best, at half the first heat
        nonlocal terrain, score, goal
        if found.level is None:
            return None
        terrain, score, goal = found.level.terrain.copy(), found.stops, found.level.goal
        return HOT / 2

    for heat in cooling(budget, HOT, COLD, EPOCH_SECONDS, stop, reheat):
        step = _neighbour(terrain, height, width, rng)
        if step is None:
            continue
        moved, change = step
        new, start, new_goal = -1, -1, -1
        if expandable(moved, height, width):
            w = moved.shape[1]
            kept = _moved_goal(goal, change)
            goals = rng.integers(0, moved.size, GOAL_SAMPLES)
            if kept is not None:
                goals = np.append(goals, kept[0] * w + kept[1])
            # Pairs far below the current score cannot be accepted anyway: let the kernel skip them.
            new, start, new_goal = best_ends(moved, max(1, score - int(6 * heat) - 1), goals)
            if new > found.stops:
                new, start, new_goal = best_ends(moved, new)
        if new < score and rng.random() >= math.exp((new - score) / heat):
            continue
        terrain, score = moved, new
        goal = divmod(new_goal, terrain.shape[1]) if new >= 0 else None
        if score > found.stops:
            w = terrain.shape[1]
            found = Found(score, Level(terrain, divmod(start, w), divmod(new_goal, w)))
            if on_best:
                on_best(score)
            if target is not None and score >= target:
                return found
    return found


def _anneal_compiled(
    rocks: int,
    height: int,
    width: int,
    rng: np.random.Generator,
    budget: Budget,
    target: int | None,
    on_best: Callable[[int], None] | None,
    stop: Callable[[], bool],
) -> Found:
    """``anneal`` with its steps in compiled code: the same schedule, moves and scoring."""
    first = _first_terrain(rocks, height, width, rng)
    terrain = np.zeros(height * width, np.uint8)
    terrain[: first.size] = first.reshape(-1)
    dims = np.array(first.shape, np.int32)
    goal = np.array([-1, -1], np.int32)
    score = np.array([-1], np.int32)
    best = np.array([-1, 0, 0, -1, -1], np.int32)
    best_terrain = np.zeros(height * width, np.uint8)
    if expandable(first, height, width):
        stops, start, flat_goal = best_ends(first)
        if stops >= 0:
            score[0], goal[:] = stops, divmod(flat_goal, first.shape[1])
            best[:] = stops, first.shape[0], first.shape[1], start, flat_goal
            best_terrain[: first.size] = first.reshape(-1)
    state = np.array([rng.integers(0, 2**63)], np.uint64)
    flag = np.zeros(1, np.int32)
    reported = int(best[0])

    def found() -> Found:
        if best[0] < 0:
            return Found()
        h, w = int(best[1]), int(best[2])
        grid = best_terrain[: h * w].reshape(h, w).copy()
        return Found(int(best[0]), Level(grid, divmod(int(best[3]), w), divmod(int(best[4]), w)))

    def reheat() -> float | None:  # from the best, at half the first heat
        if best[0] < 0:
            return None
        h, w = int(best[1]), int(best[2])
        terrain[: h * w] = best_terrain[: h * w]
        dims[:] = h, w
        goal[:] = divmod(int(best[4]), w)
        score[0] = best[0]
        return HOT / 2

    for heat in cooling(budget, HOT, COLD, EPOCH_SECONDS, stop, reheat):
        kernel_anneal.anneal_open(
            terrain,
            dims,
            height,
            width,
            goal,
            score,
            state,
            heat,
            heat,
            SLICE_STEPS,
            target,
            flag,
            best_terrain,
            best,
        )
        if best[0] > reported:
            reported = int(best[0])
            if on_best:
                on_best(reported)
        if target is not None and best[0] >= target:
            return found()
    return found()


#: Set in a chain's process when any chain reaches the target (see ``search``).
_reached: Any = None


def _start_chain_process(event, parent: int | None) -> None:
    global _reached
    _reached = event
    if parent is not None:  # in a process of its own
        end_with_parent(parent)  # Ctrl-C reaches the whole group: the caller ends the chains


def _chain(job: tuple) -> Found:
    """One chain in a worker process; it stops when another one has reached the target."""
    rocks, height, width, stream, budget, target = job
    found = anneal(rocks, height, width, stream, budget, target=target, stop=_reached.is_set)
    if target is not None and found.stops >= target:
        _reached.set()
    return found


def search(
    request: LayoutRequest,
    rng: np.random.Generator,
    budget: Budget,
    workers: int = 1,
    *,
    target: int | None = None,
    exclude: AbstractSet[Level] = frozenset(),
    on_best: Callable[[int], None] | None = None,
) -> tuple[Level | None, int]:
    """The best level the chains find for an open-grid request (see ``applies``), expanded to
    the request's grid, and its min stops; (None, -1) when none is found.

    One chain runs here with one worker; with more, one chain per worker, each in a process of
    its own on Linux (a chain is mostly Python between kernel calls, so threads would share one
    core; the processes are forked, so a caller's script is never imported again), in threads
    elsewhere. They end together when one reaches ``target``. On the wall clock the ``budget`` is
    the machine's in every process; on the cpu clock each forked chain counts its own work
    (``Budget.forked``).
    """
    streams = rng.spawn(max(1, workers))
    forked = len(streams) > 1 and sys.platform == "linux"
    # each forked chain's own work, on the cpu clock
    lanes = budget.forked(budget.ended) if forked else budget
    jobs: list[tuple] = [
        (request.max_rocks, request.height, request.width, stream, lanes, target)
        for stream in streams
    ]
    if len(jobs) == 1:
        results = [anneal(*jobs[0][:5], target=target, on_best=on_best)]
    else:
        context = multiprocessing.get_context("fork") if forked else None
        reached = context.Event() if context is not None else threading.Event()
        pool = (
            ProcessPoolExecutor(
                len(jobs),
                mp_context=context,
                initializer=_start_chain_process,
                initargs=(reached, os.getpid()),
            )
            if forked
            else ThreadPoolExecutor(
                len(jobs), initializer=_start_chain_process, initargs=(reached, None)
            )
        )
        with pool:
            try:
                results = list(pool.map(_chain, jobs))
            except BaseException:  # Ctrl-C: end the chains at their next move, then let it through
                reached.set()
                raise
        if on_best and max(found.stops for found in results) >= 0:
            on_best(max(found.stops for found in results))
    for found in sorted(results, key=lambda f: -f.stops):
        if found.level is None:
            continue
        level = expand(found.level, request.height, request.width)
        if level is not None and level not in exclude:
            return level, found.stops
    return None, -1
