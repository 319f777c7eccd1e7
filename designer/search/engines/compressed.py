"""Compressed open grids: a level with its rows and columns that no rock holds deleted (``compress``)
and expanded back to the request's grid (``expand``), and its best start and goal
(``best_ends``). Only the order of the rocks' rows and columns and the gaps between them count."""

from __future__ import annotations

import numpy as np

from designer.core import kernel_search
from designer.core.level import Level
from designer.core.terrain import ICE, ROCK


def rock_free_lines(terrain: np.ndarray, axis: int) -> np.ndarray:
    """Per row (axis 0) or column (axis 1): whether it holds no rock."""
    return ~(terrain == ROCK).any(axis=1 - axis)


def _dead_lines(level: Level, axis: int) -> list[int]:
    """Rows (axis 0) or columns (axis 1) never rested on: inner, rock-free, between two rock-free
    lines, and holding neither end."""
    free = rock_free_lines(level.terrain, axis)
    ends = {level.start[axis], level.goal[axis]}
    return [
        k
        for k in range(1, len(free) - 1)
        if free[k - 1] and free[k] and free[k + 1] and k not in ends
    ]


def _delete(level: Level, k: int, axis: int) -> Level:
    def moved(cell):
        cell = list(cell)
        cell[axis] -= cell[axis] > k
        return tuple(cell)

    return Level(np.delete(level.terrain, k, axis=axis), moved(level.start), moved(level.goal))


def compress(level: Level) -> Level:
    """The same puzzle with every row and column that is never rested on removed (only sound
    for open grids: rocks, ice, no snow)."""
    for axis in (0, 1):
        while dead := _dead_lines(level, axis):
            level = _delete(level, dead[0], axis)
    return level


def expandable(terrain: np.ndarray, height: int, width: int) -> bool:
    """Whether ``terrain`` can grow to ``height`` x ``width`` without changing its puzzle: each
    axis is already full size, or has two neighbouring rock-free lines to insert between."""
    for axis, size in ((0, height), (1, width)):
        free = rock_free_lines(terrain, axis)
        if len(free) > size or (len(free) < size and not (free[:-1] & free[1:]).any()):
            return False
    return True


def expand(level: Level, height: int, width: int) -> Level | None:
    """``level`` grown to ``height`` x ``width`` by blank lines inserted between two rock-free
    ones (the first such pair from the middle out), or None if it cannot be."""
    if not expandable(level.terrain, height, width):
        return None
    terrain, ends = level.terrain, [list(level.start), list(level.goal)]
    for axis, size in ((0, height), (1, width)):
        extra = size - terrain.shape[axis]
        if not extra:
            continue
        free = rock_free_lines(terrain, axis)
        pairs = np.flatnonzero(free[:-1] & free[1:])
        middle = (terrain.shape[axis] - 1) / 2
        k = int(pairs[np.argmin(np.abs(pairs + 0.5 - middle))]) + 1  # insert before line k
        terrain = np.insert(terrain, [k] * extra, ICE, axis=axis)
        for end in ends:
            end[axis] += extra if end[axis] >= k else 0
    return Level(terrain, (ends[0][0], ends[0][1]), (ends[1][0], ends[1][1]))


def best_ends(
    terrain: np.ndarray, threshold: int = 1, goals: np.ndarray | None = None
) -> tuple[int, int, int]:
    """(min stops, flat start, flat goal) of the best strong, reversible start and goal on
    ``terrain`` (any ice cells; the goal among the flat indices ``goals`` if given), or
    (-1, -1, -1) when none reaches ``threshold``."""
    ice = (terrain == ICE).astype(np.uint8)
    goal_ok = ice
    if goals is not None:
        goal_ok = np.zeros_like(ice)
        goal_ok.reshape(-1)[goals] = 1
        goal_ok &= ice
    stops, start, goal = kernel_search.best_pair(terrain, ice, goal_ok, max(1, threshold))
    return (stops, start, goal) if stops >= 0 else (-1, -1, -1)
