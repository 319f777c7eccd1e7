"""The fast path: class, reversibility and min stops without building any graph object.

Generators call this in their inner loop, so it runs compiled breadth-first searches over slide
tables (``designer.core.kernels``), one level or a whole batch at a time, with the batch shared between
threads. ``designer.analysis`` computes the same figures (and many more) with networkx; the tests
hold the two equal. A level with items is classified on its graph of states (``designer.core.items``).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from designer.core import kernels
from designer.core.items import States, state_table
from designer.core.level import Level
from designer.core.terrain import CLASS_NAMES, STRONG, UNSOLVABLE, WEAK

__all__ = [
    "CLASS_NAMES",
    "Classification",
    "STRONG",
    "UNSOLVABLE",
    "WEAK",
    "classify",
    "classify_batch",
    "classify_many",
]
#: Batches smaller than this run on one thread (thread start-up would cost more than it saves).
THREAD_MIN_BATCH = 512


@dataclass(frozen=True)
class Classification:
    """What a generator needs to know of a level."""

    solvability: str  # "unsolvable" | "weak" | "strong"
    reversible: bool
    min_stops: int | None

    @property
    def pokemon(self) -> bool:
        """Strong and reversible: the standard of the Pokemon maps."""
        return self.solvability == "strong" and self.reversible


def classify_batch(
    terrains: np.ndarray, starts: np.ndarray, goals: np.ndarray, threads: int | None = None
):
    """Classify many same-sized levels at once.

    ``terrains`` is (B, H, W) uint8; ``starts`` and ``goals`` are (B,) flat indices. Returns
    three arrays: class codes (0 unsolvable, 1 weak, 2 strong), reversible flags and min stops
    (-1 when unsolvable). Large batches are split over ``threads`` (default: all cores).
    """
    terrains = np.ascontiguousarray(terrains, dtype=np.uint8)
    count = terrains.shape[0] if terrains.ndim == 3 else 0
    threads = threads or os.cpu_count() or 1
    if threads == 1 or count < THREAD_MIN_BATCH or kernels.implementation() != "compiled":
        return kernels.classify_batch(terrains, starts, goals)
    starts, goals = np.asarray(starts), np.asarray(goals)
    cuts = np.linspace(0, count, threads + 1).astype(int)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(
            pool.map(
                lambda a, b: kernels.classify_batch(terrains[a:b], starts[a:b], goals[a:b]),
                cuts[:-1],
                cuts[1:],
            )
        )
    return tuple(np.concatenate([part[k] for part in parts]) for k in range(3))


def _result(klass: int, rev: bool, stops: int) -> Classification:
    return Classification(CLASS_NAMES[klass], bool(rev), int(stops) if stops >= 0 else None)


def classify(level: Level) -> Classification:
    """Class, reversibility and min stops of one level (on its states when it has items)."""
    if level.items or not level.plain:
        return _classify_states(level)
    classes, rev, stops = kernels.classify_batch(
        level.terrain[None], [level.index(level.start)], [level.index(level.goal)]
    )
    return _result(classes[0], rev[0], stops[0])


def min_stops(level: Level) -> int:
    """The min stops of a level, on its states when it has items (-1 when it cannot be finished)."""
    states = state_table(level)
    return int(kernels.reach(states.dest, states.start, states.goal)[0][states.goal])


def _classify_states(level: Level) -> Classification:
    states = state_table(level)
    stops, order = kernels.reach(states.dest, states.start, states.goal)
    k = int(stops[states.goal])
    if k < 0:
        return _result(UNSOLVABLE, False, -1)
    return _result(
        STRONG if all_finish(states, order) else WEAK, min_stops(level.swapped()) >= 0, k
    )


def all_finish(states: States, order: np.ndarray) -> bool:
    """Whether the goal can be reached from every state of ``order`` (the states reached from the
    start): a backward search over the reversed moves, compiled (``kernels.all_reach_goal``)."""
    return kernels.all_reach_goal(states.dest, order, states.goal)


def items_matter_on(states: States, stops: int) -> bool:
    """Whether every item lengthens the fewest-moves solution (``stops``) of the level whose
    ``states`` these are. The level without item j plays exactly as the level with item j taken
    before the first move (the goal then opens once the others are taken), so its min stops is
    the distance from the state (start, {j}) to the goal: one table serves every item."""
    for j in range(len(states.items)):
        if (
            kernels.reach(states.dest, states.start + (states.cells << j), states.goal)[0][
                states.goal
            ]
            >= stops
        ):
            return False
    return True


def items_matter(level: Level, stops: int) -> bool:
    """Whether every item of ``level`` (of ``stops`` min stops) lengthens its fewest-moves
    solution: without it, the level needs fewer stops (see ``items_matter_on``)."""
    return items_matter_on(state_table(level), stops)


def pairs_matter(level: Level, stops: int, pinned=()) -> bool:
    """Whether every teleport pair of ``level`` (of ``stops`` min stops) but those ``pinned`` (a
    template's) matters: without it, the level is shorter, or cannot be finished
    (``designer.core.floors.teleport_pairs``)."""
    from designer.core.floors import teleport_pairs

    for a, b in teleport_pairs(tuple(p for p in level.portals if p not in pinned)):
        without = min_stops(
            level.replace(portals=tuple(p for p in level.portals if a not in p and b not in p))
        )
        if 0 <= stops <= without:
            return False
    return True


def classify_many(levels: list[Level]) -> list[Classification]:
    """Classify a list of levels (grouped by shape so each group runs as one batch)."""
    results: list[Classification | None] = [None] * len(levels)
    by_shape: dict[tuple[int, int], list[int]] = {}
    for k, level in enumerate(levels):
        if level.items or not level.plain:
            results[k] = _classify_states(level)
            continue
        by_shape.setdefault(level.shape, []).append(k)
    for ks in by_shape.values():
        group = [levels[k] for k in ks]
        classes, rev, stops = classify_batch(
            np.stack([lv.terrain for lv in group]),
            np.array([lv.index(lv.start) for lv in group]),
            np.array([lv.index(lv.goal) for lv in group]),
        )
        for j, k in enumerate(ks):
            results[k] = _result(classes[j], rev[j], stops[j])
    return results  # type: ignore[return-value]
