"""Simulated annealing over whole layouts: the ``anneal`` design stage.

The climb (``designer.search.engines.climb``) takes the best one-cell change until none helps, then restarts:
on a framed 12x12 it stalls in the high 40s. A chain here takes one random change at a time
(a free cell toggled, a rock moved, the start or the goal moved along its edge), scored in
compiled code (``kernel_anneal.anneal_layout``, about 170,000 steps a second on a framed 12x12), and
keeps a worse layout with probability exp(-loss / heat). Only strong, reversible layouts within
the request's rock budget and stop band are ever kept, so the chain's best is always a
candidate for the verifier.

Schedule (``cooling``, shared with the open-grid chains): the heat falls from ``HOT`` to ``COLD``
over an epoch of ``EPOCH_SECONDS`` (or the time left); each later epoch starts again from the
chain's best at ``REHEAT`` of the first heat (``designer.search.tuning`` holds the values). One
chain per worker, in threads (the compiled steps run without the GIL), each with its own random
stream drawn from the caller's seeded generator; they stop together when one reaches a target.

It applies where a layout is a set of rocks on free cells: no snow to place, and the compiled
kernels present (on the Python twin the climb runs instead).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from designer.core import kernel_anneal
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.core.space import LayoutSpace
from designer.core.terrain import ICE
from designer.search.tuning import COLD, EPOCH_SECONDS, HOT, REHEAT, SLICE_STEPS


def cooling(
    budget: Budget,
    hot: float,
    cold: float,
    epoch_seconds: float,
    stop: Callable[[], bool],
    reheat: Callable[[], float | None],
) -> Iterator[float]:
    """The heat of each step of an annealing chain, until ``budget`` is spent or ``stop()``.

    Within an epoch of ``epoch_seconds`` (or the time left) the heat falls geometrically from
    the epoch's first heat to ``cold``. At the end of an epoch ``reheat()`` restarts the chain
    from its best and returns the next epoch's first heat (None: keep it)."""
    first = hot
    while (now := budget.now()) < budget.deadline and not stop():
        epoch_start, epoch = now, max(1e-3, min(epoch_seconds, budget.deadline - now))
        while (now := budget.now()) < min(budget.deadline, epoch_start + epoch) and not stop():
            yield first * (cold / first) ** ((now - epoch_start) / epoch)
        again = reheat()
        if again is not None:
            first = again


def applies(request: LayoutRequest) -> bool:
    """A layout space of rocks on free cells (no snow to place), with the compiled kernels."""
    return kernel_anneal.can_anneal() and not request.placed_snow() and bool(request.free_cells())


@dataclass
class LayoutChain:
    """One chain's state, updated in place by ``kernel_anneal.anneal_layout``."""

    terrain: np.ndarray  # (H, W) uint8, fixed tiles included; the ends' cells as the level has them
    ends: np.ndarray  # int32 [start, goal], flat
    score: np.ndarray  # int32 [min stops]
    rng: np.ndarray  # uint64 [1]
    best_terrain: np.ndarray
    best: np.ndarray  # int32 [stops, start, goal]

    @classmethod
    def start_from(cls, terrain: np.ndarray, level: Level, stops: int, seed: int) -> LayoutChain:
        ends = np.array([level.index(level.start), level.index(level.goal)], np.int32)
        terrain = np.ascontiguousarray(terrain, np.uint8).copy()
        return cls(
            terrain,
            ends,
            np.array([stops], np.int32),
            np.array([seed], np.uint64),
            terrain.copy(),
            np.array([stops, ends[0], ends[1]], np.int32),
        )

    def best_level(self) -> Level:
        w = self.terrain.shape[1]
        terrain = self.best_terrain.copy()
        start, goal = divmod(int(self.best[1]), w), divmod(int(self.best[2]), w)
        terrain[start] = terrain[goal] = ICE  # a start or goal in the frame opens that cell
        return Level(terrain, start, goal)

    def restart_from_best(self) -> None:
        self.terrain[...] = self.best_terrain
        self.ends[:] = self.best[1:]
        self.score[0] = self.best[0]


def _closed(level: Level, request: LayoutRequest) -> np.ndarray:
    """The level's terrain with its ends' cells as the request's fixed tiles have them (a frame
    gap back to rock): the chain opens the current ends itself when it scores a layout."""
    terrain = level.terrain.copy()
    fixed = np.array(request.fixed_grid(), np.int16)
    for end in (level.start, level.goal):
        if fixed[end] >= 0:
            terrain[end] = fixed[end]
    return terrain


def run_chain(
    request: LayoutRequest,
    chain: LayoutChain,
    budget: Budget,
    target: int | None,
    stop: np.ndarray,
    on_best: Callable[[int], None] | None = None,
    conditions: dict | None = None,
    heat: float = 1.0,
) -> LayoutChain:
    """Anneal ``chain`` until ``budget`` is spent, ``target`` is reached or ``stop[0]`` is set.
    ``conditions``: the chain's objective and choice conditions (see ``choice_conditions``);
    ``heat``: the schedule's heats are multiplied by it (a score in finer units than a stop)."""
    space = LayoutSpace.of(request)
    free = (space.fixed < 0).reshape(request.height, request.width)
    starts, goals = space.start_cells.tolist(), space.goal_cells.tolist()
    reported = int(chain.best[0])

    def reheat() -> float:
        chain.restart_from_best()
        return REHEAT * HOT * heat

    for now in cooling(
        budget, HOT * heat, COLD * heat, EPOCH_SECONDS, lambda: bool(stop[0]), reheat
    ):
        kernel_anneal.anneal_layout(
            chain.terrain,
            free,
            starts,
            goals,
            request.max_rocks,
            request.max_stops,
            chain.ends,
            chain.score,
            chain.rng,
            now,
            now,
            SLICE_STEPS,
            target,
            stop,
            chain.best_terrain,
            chain.best,
            **(conditions or {}),
        )
        if chain.best[0] > reported:
            reported = int(chain.best[0])
            if on_best:
                on_best(reported)
        if target is not None and chain.best[0] >= target:
            stop[0] = 1
            return chain
    return chain


def run_steps(
    request: LayoutRequest,
    chain: LayoutChain,
    budget: Budget,
    steps: int,
    target: int | None,
    stop: np.ndarray,
    conditions: dict | None = None,
    heat: float = 1.0,
    stall: int | None = None,
) -> LayoutChain:
    """Anneal ``chain`` for ``steps`` steps, its heat falling from ``HOT`` to ``COLD`` (times
    ``heat``) over them, until it reaches ``target`` itself, its best has not risen for ``stall``
    steps (counted in whole slices), ``budget`` is spent or ``stop[0]`` is set: a budget of
    work, so that the same seed gives the same chain on any machine that has the time."""
    space = LayoutSpace.of(request)
    free = (space.fixed < 0).reshape(request.height, request.width)
    starts, goals = space.start_cells.tolist(), space.goal_cells.tolist()
    hot, cold = HOT * heat, COLD * heat
    done = risen = 0
    best = int(chain.best[0])
    local = np.zeros(1, np.int32)  # this chain's own stop at its target: the others go on
    while done < steps and not stop[0] and not budget.expired():
        take = min(SLICE_STEPS, steps - done)
        first, last = (
            hot * (cold / hot) ** (k / max(1, steps - 1)) for k in (done, done + take - 1)
        )
        kernel_anneal.anneal_layout(
            chain.terrain,
            free,
            starts,
            goals,
            request.max_rocks,
            request.max_stops,
            chain.ends,
            chain.score,
            chain.rng,
            first,
            last,
            take,
            target,
            local,
            chain.best_terrain,
            chain.best,
            **(conditions or {}),
        )
        done += take
        if target is not None and chain.best[0] >= target:
            break
        if chain.best[0] > best:
            best, risen = int(chain.best[0]), done
        elif stall is not None and done - risen >= stall:
            break
    return chain


def choice_conditions(
    request: LayoutRequest, objective: str, maximizing: bool = False
) -> dict | None:
    """The chain's conditions when it counts choices (``objective`` "options") or the request
    constrains them: the request's K as a floor, ``unique``, and ``min_choices`` as a floor when
    the score counts stops or decisions (counting options, it is the target to climb to, not a
    wall). None for
    a plain min-stops chain. A room: its routes and how they make one score (``room_score``,
    ``designer.search.engines.rooms``), every route's band in them."""
    return request_kind(request).conditions(request, objective, maximizing)


def search(
    request: LayoutRequest,
    level: Level,
    stops: int,
    rng: np.random.Generator,
    budget: Budget,
    workers: int = 1,
    *,
    target: int | None = None,
    on_best: Callable[[int], None] | None = None,
    objective: str = "stops",
    steps: int | None = None,
    stall: int | None = None,
) -> tuple[Level | None, int]:
    """The best layout the chains find from ``level`` (strong, reversible, ``stops`` min stops):
    one chain per worker until ``budget`` is spent or until one reaches
    ``target``; returns the best level and its stops (``level`` itself if nothing beat it).

    Counting choices (``objective`` "options", or a request with ``min_choices`` or ``unique``:
    see ``choice_conditions``), ``level`` is only where the chains start, it need not meet the
    conditions, and the score is the objective's: the best level that meets them and its score
    come back, or (None, -1) when no chain found one.

    Counting decisions (``objective`` "decisions": options a stop less the share of rail stops,
    in thousandths; ``designer.search.decisions``), the chains may pass through layouts short of
    the request's min stops, never keep one as their best, and run hotter: a stop's worth of
    options moves the score by 1000 / min stops.

    ``steps``: each chain runs that many steps (``run_steps``) rather than until the time is up,
    and stops at ``target`` on its own, or when its best has not risen for ``stall`` steps; the
    best chain wins, the first of equals: the same seed and number of chains give the same level."""
    conditions = choice_conditions(request, objective, maximizing=target is None)
    heat = 1.0
    if objective in ("decisions", "per_stop"):  # thousandths of a stop's worth
        heat = 1000 / max(1, request_kind(request).floor(request))
    if objective == "decisions":
        target = None if target is None else target + kernel_anneal.DECISIONS_MET
    terrain = _closed(level, request)
    seeds = rng.integers(0, 2**63, max(1, workers))
    first = stops if conditions is None else -1  # -1: the chain scores its start itself
    chains = [LayoutChain.start_from(terrain, level, first, int(seed)) for seed in seeds]
    stop = np.zeros(1, np.int32)

    def run(chain: LayoutChain) -> LayoutChain:
        if steps is not None:
            return run_steps(request, chain, budget, steps, target, stop, conditions, heat, stall)
        return run_chain(request, chain, budget, target, stop, on_best, conditions, heat)

    # on the work clock, one after another: each reads its own work
    if len(chains) == 1 or budget.clock == "work":
        for chain in chains:
            run(chain)
    else:
        with ThreadPoolExecutor(len(chains)) as pool:
            futures = [pool.submit(run, chain) for chain in chains]
            try:
                for future in futures:
                    future.result()
            except BaseException:  # Ctrl-C or an error: the other chains end at their next slice
                stop[0] = 1
                raise
    best = max(chains, key=lambda chain: int(chain.best[0]))
    if objective == "decisions":
        met = best.best[0] >= kernel_anneal.DECISIONS_MET
        return (
            (best.best_level(), int(best.best[0]) - kernel_anneal.DECISIONS_MET)
            if met
            else (None, -1)
        )
    if conditions is not None:
        return (best.best_level(), int(best.best[0])) if best.best[0] >= 0 else (None, -1)
    if best.best[0] <= stops:
        return level, stops
    return best.best_level(), int(best.best[0])
