"""The fast path: class, reversibility and min stops without building any graph object.

Generators call this in their inner loop, so it runs compiled breadth-first searches over slide
tables (``_kernels.c``), one level or a whole batch at a time, with the batch shared between
threads. ``designer.analysis`` computes the same figures (and many more) with networkx; the tests
hold the two equal.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from designer import _kernels
from designer.level import Level

UNSOLVABLE, WEAK, STRONG = 0, 1, 2
CLASS_NAMES = ("unsolvable", "weak", "strong")
#: Batches smaller than this run on one thread (thread start-up would cost more than it saves).
THREAD_MIN_BATCH = 512


def reach(dest: np.ndarray, start: int, goal: int) -> tuple[np.ndarray, np.ndarray]:
    """Stops from ``start`` to every cell (-1 where unreachable), and the reached cells in BFS order.

    The goal ends the game, so no move leaves it."""
    n = dest.shape[1]
    stops = np.empty(n, np.int32)
    order = np.empty(n, np.int32)
    count = _kernels.reach(np.ascontiguousarray(dest, np.int32), n, start, goal, stops, order)
    return stops, order[:count]


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


def classify_batch(terrains: np.ndarray, starts: np.ndarray, goals: np.ndarray, threads: int | None = None):
    """Classify many same-sized levels at once.

    ``terrains`` is (B, H, W) uint8; ``starts`` and ``goals`` are (B,) flat indices. Returns
    three arrays: class codes (0 unsolvable, 1 weak, 2 strong), reversible flags and min stops
    (-1 when unsolvable). Large batches are split over ``threads`` (default: all cores).
    """
    terrains = np.ascontiguousarray(terrains, dtype=np.uint8)
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    goals = np.ascontiguousarray(goals, dtype=np.int64)
    count, height, width = terrains.shape
    classes = np.empty(count, np.int8)
    reversible = np.empty(count, np.bool_)
    min_stops = np.empty(count, np.int32)

    def run(a: int, b: int) -> None:
        _kernels.classify_batch(terrains[a:b], b - a, height, width, starts[a:b], goals[a:b],
                                classes[a:b], reversible[a:b], min_stops[a:b])

    threads = threads or os.cpu_count() or 1
    if threads == 1 or count < THREAD_MIN_BATCH:
        run(0, count)
    else:
        cuts = np.linspace(0, count, threads + 1).astype(int)
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(run, cuts[:-1], cuts[1:]))
    return classes, reversible, min_stops


def _result(klass: int, rev: bool, stops: int) -> Classification:
    return Classification(CLASS_NAMES[klass], bool(rev), int(stops) if stops >= 0 else None)


def classify(level: Level) -> Classification:
    """Class, reversibility and min stops of one level."""
    classes, rev, stops = classify_batch(
        level.terrain[None], np.array([level.index(level.start)]), np.array([level.index(level.goal)]))
    return _result(classes[0], rev[0], stops[0])


def classify_many(levels: list[Level]) -> list[Classification]:
    """Classify a list of levels (grouped by shape so each group runs as one batch)."""
    results: list[Classification | None] = [None] * len(levels)
    by_shape: dict[tuple[int, int], list[int]] = {}
    for k, level in enumerate(levels):
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
