"""The fast path: class, reversibility and min stops without building any graph object.

Generators call this in their inner loop, so it works on slide tables with compiled
breadth-first searches, one level or a whole batch at a time. ``designer.analysis`` computes the
same figures (and many more) with networkx; the tests hold the two equal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from designer.level import Level
from designer.rules import _slide_kernel

UNSOLVABLE, WEAK, STRONG = 0, 1, 2
CLASS_NAMES = ("unsolvable", "weak", "strong")


@njit(cache=True, nogil=True)
def reach_kernel(dest, start, goal):
    """Stops from ``start`` to every cell (-1 where unreachable) and the cells in BFS order.

    The goal ends the game, so no move leaves it."""
    n = dest.shape[1]
    stops = np.full(n, -1, np.int32)
    order = np.empty(n, np.int32)
    stops[start] = 0
    order[0] = start
    head, tail = 0, 1
    while head < tail:
        u = order[head]
        head += 1
        if u == goal:
            continue
        for d in range(4):
            v = dest[d, u]
            if v >= 0 and stops[v] < 0:
                stops[v] = stops[u] + 1
                order[tail] = v
                tail += 1
    return stops, order[:tail]


@njit(cache=True, nogil=True)
def all_reach_goal_kernel(dest, order, goal):
    """True when every cell in ``order`` (the cells reachable from the start) can reach the goal."""
    n = dest.shape[1]
    # Reverse adjacency of the reachable part, in compressed rows.
    indegree = np.zeros(n + 1, np.int32)
    for k in range(order.shape[0]):
        u = order[k]
        if u == goal:
            continue
        for d in range(4):
            v = dest[d, u]
            if v >= 0:
                indegree[v + 1] += 1
    offsets = np.cumsum(indegree)
    fill = offsets[:-1].copy()
    sources = np.empty(offsets[-1], np.int32)
    for k in range(order.shape[0]):
        u = order[k]
        if u == goal:
            continue
        for d in range(4):
            v = dest[d, u]
            if v >= 0:
                sources[fill[v]] = u
                fill[v] += 1
    seen = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int32)
    seen[goal] = True
    queue[0] = goal
    head, tail = 0, 1
    while head < tail:
        v = queue[head]
        head += 1
        for e in range(offsets[v], offsets[v + 1]):
            u = sources[e]
            if not seen[u]:
                seen[u] = True
                queue[tail] = u
                tail += 1
    return tail == order.shape[0]


@njit(cache=True, nogil=True)
def classify_kernel(terrain, start, goal):
    """(class code, reversible, min stops or -1) for one level given as flat start/goal."""
    dest, _ = _slide_kernel(terrain, goal)
    stops, order = reach_kernel(dest, start, goal)
    if stops[goal] < 0:
        return UNSOLVABLE, False, -1
    klass = STRONG if all_reach_goal_kernel(dest, order, goal) else WEAK
    back, _ = _slide_kernel(terrain, start)  # the reverse level captures at the old start
    back_stops, _ = reach_kernel(back, goal, start)
    return klass, back_stops[start] >= 0, stops[goal]


@njit(cache=True, parallel=True)
def _classify_batch_kernel(terrains, starts, goals, classes, reversible, min_stops):
    for k in prange(terrains.shape[0]):
        classes[k], reversible[k], min_stops[k] = classify_kernel(terrains[k], starts[k], goals[k])


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


def classify(level: Level) -> Classification:
    """Class, reversibility and min stops of one level."""
    klass, rev, stops = classify_kernel(level.terrain, level.index(level.start), level.index(level.goal))
    return Classification(CLASS_NAMES[klass], bool(rev), int(stops) if stops >= 0 else None)


def classify_batch(terrains: np.ndarray, starts: np.ndarray, goals: np.ndarray):
    """Classify many same-sized levels at once, on all cores.

    ``terrains`` is (B, H, W) uint8; ``starts`` and ``goals`` are (B,) flat indices. Returns
    three arrays: class codes (0 unsolvable, 1 weak, 2 strong), reversible flags and min stops
    (-1 when unsolvable).
    """
    terrains = np.ascontiguousarray(terrains, dtype=np.uint8)
    count = terrains.shape[0]
    classes = np.empty(count, np.int8)
    reversible = np.empty(count, np.bool_)
    min_stops = np.empty(count, np.int32)
    _classify_batch_kernel(
        terrains, np.asarray(starts, np.int64), np.asarray(goals, np.int64), classes, reversible, min_stops
    )
    return classes, reversible, min_stops


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
            results[k] = Classification(
                CLASS_NAMES[classes[j]], bool(rev[j]), int(stops[j]) if stops[j] >= 0 else None
            )
    return results  # type: ignore[return-value]
