"""The sliding rule, in one place.

A move picks a direction and slides the player while the next cell is inside the grid and not
rock; the slide also ends ON a snow cell or ON the goal as soon as the player enters it. A
direction that does not move the player is not a move.

``slide_table`` computes, for every cell and direction, where the slide ends and how many cells
it covers, in O(cells) (``designer.core.kernels``: compiled, or its numpy twin).
Everything else (solver, analysis, fast classifier) reads that table, so the rule is written
exactly once.
"""

from __future__ import annotations

import numpy as np

from designer.core import kernels
from designer.core.level import Cell, Level

#: Directions in their fixed order; the index is used throughout (tables, tie-breaks).
DIRECTIONS = "udlr"
DELTAS = ((-1, 0), (1, 0), (0, -1), (0, 1))
NO_MOVE = -1


def slide_table(level: Level, capture: Cell | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(dest, length)``, each of shape (4, H*W), for the level.

    ``capture`` is the cell that stops a slide on it (the goal unless given; the reverse level
    captures at the start instead).
    """
    goal = level.goal if capture is None else capture
    return terrain_slide_table(level.terrain, level.index(goal))


def terrain_slide_table(terrain: np.ndarray, capture: int) -> tuple[np.ndarray, np.ndarray]:
    """``slide_table`` for a bare terrain grid; ``capture`` is a flat index, or -1 for no goal yet."""
    return kernels.slide_table(terrain, capture)


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
