"""The sliding rule, in one place.

A move picks a direction and slides the player while the next cell is inside the grid and not
rock; the slide also ends ON a snow cell or ON the goal as soon as the player enters it. A
direction that does not move the player is not a move.

``slide_table`` computes, for every cell and direction, where the slide ends and how many cells
it covers, in O(cells) by reusing the neighbour's answer. Everything else (solver, analysis,
fast classifier) reads that table, so the rule is written exactly once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from designer.level import ROCK, SNOW, Cell, Level

#: Directions in their fixed order; the index is used throughout (tables, tie-breaks).
DIRECTIONS = "udlr"
DELTAS = ((-1, 0), (1, 0), (0, -1), (0, 1))
NO_MOVE = -1


@njit(cache=True, nogil=True)
def _slide_kernel(terrain, capture):
    """dest[d, i]: flat cell where a slide from i in direction d ends (NO_MOVE if none);
    length[d, i]: cells travelled. ``capture`` is the flat index of the goal (stops you on it)."""
    height, width = terrain.shape
    n = height * width
    dest = np.full((4, n), -1, np.int32)
    length = np.zeros((4, n), np.int32)
    for d in range(4):
        dr = (-1, 1, 0, 0)[d]
        dc = (0, 0, -1, 1)[d]
        # Visit cells so that the neighbour in direction d is always done first.
        for a in range(height):
            r = a if dr <= 0 else height - 1 - a
            for b in range(width):
                c = b if dc <= 0 else width - 1 - b
                if terrain[r, c] == ROCK:
                    continue
                nr = r + dr
                nc = c + dc
                if nr < 0 or nr >= height or nc < 0 or nc >= width or terrain[nr, nc] == ROCK:
                    continue  # blocked at once: not a move
                i = r * width + c
                j = nr * width + nc
                if terrain[nr, nc] == SNOW or j == capture or dest[d, j] < 0:
                    dest[d, i] = j
                    length[d, i] = 1
                else:
                    dest[d, i] = dest[d, j]
                    length[d, i] = length[d, j] + 1
    return dest, length


def slide_table(level: Level, capture: Cell | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(dest, length)``, each of shape (4, H*W), for the level.

    ``capture`` is the cell that stops a slide on it (the goal unless given; the reverse level
    captures at the start instead).
    """
    goal = level.goal if capture is None else capture
    return _slide_kernel(level.terrain, level.index(goal))


def replay(level: Level, moves: str) -> tuple[Cell, int, int]:
    """Play a move string from the start. Returns (final cell, moves made, cells slid).

    Raises ValueError on a letter that is not u/d/l/r, on a direction that is not a move, and
    on any move after the goal was reached (the goal ends the game).
    """
    dest, length = slide_table(level)
    cell, distance = level.start, 0
    for k, letter in enumerate(moves):
        if letter not in DIRECTIONS:
            raise ValueError(f"move {k}: {letter!r} is not one of u, d, l, r")
        if cell == level.goal:
            raise ValueError(f"move {k}: the goal was already reached")
        d, i = DIRECTIONS.index(letter), level.index(cell)
        if dest[d, i] == NO_MOVE:
            raise ValueError(f"move {k}: {letter!r} from {cell} does not move the player")
        cell = level.cell(dest[d, i])
        distance += int(length[d, i])
    return cell, len(moves), distance
