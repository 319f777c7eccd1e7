"""What a player sees from a stop, looking ahead: how near the exit each move brings them.

A player who looks ``foresight`` moves ahead judges a move by the stop nearest the exit they can
see from where it ends: that stop itself (``foresight`` 0, the simple player's view), or any stop
within ``foresight`` more moves of it. Nearness is the Manhattan distance to the exit as the
level is drawn, over the grid's larger side, so a move that ends 2 cells nearer on a 10x10 level
is worth 0.2 whatever the look-ahead; the exit itself is at distance 0, so a player who looks
ahead sees the exit a move or two away and heads for it.

>>> from designer.core.items import state_table
>>> from designer.core.level import Level
>>> level = Level.from_rows(["#######", "#S...G#", "#.#####", "#######"])
>>> table = state_table(level)
>>> start = np.array([table.start])
>>> toward(table, start, level.height, 0)[[1, 3], 0].round(3).tolist()   # down, right
[-0.143, 0.571]

A player who knows the way (``route``) sees more than the level as drawn: how many moves each
move takes off the fewest to the exit. From the start above (one move from the exit), right
reaches the exit and down ends on a stop two moves from it:

>>> route_gain(table, start)[[1, 3], 0].tolist()   # down, right
[-1.0, 1.0]
"""

from __future__ import annotations

import numpy as np

from designer.core.items import States
from designer.core.rules import NO_MOVE


def nearest(table: States, foresight: int) -> np.ndarray:
    """Each state's distance to the exit, or the least distance of a state within ``foresight``
    moves of it (the exit: 0), in cells."""
    width = table.width
    gr, gc = divmod(int(table.goal % table.cells), width)
    r, c = np.divmod(np.arange(table.count) % table.cells, width)
    far = np.abs(r - gr) + np.abs(c - gc)
    far[table.goal] = 0
    dest = table.dest
    moving = dest != NO_MOVE
    safe = np.where(moving, dest, 0)
    for _ in range(foresight):
        seen = np.where(moving, far[safe], far[None, :]).min(axis=0)
        far = np.minimum(far, seen)
    return far


def to_exit(table: States) -> np.ndarray:
    """Each state's fewest moves to the exit (``inf``: the exit cannot be reached from it, or the
    state from the start), as the solver counts them
    (``designer.analysis.solver.costs_to_goal``)."""
    from designer.analysis.solver import costs_to_goal

    far = np.full(table.count, np.inf)
    fewest = costs_to_goal(table).primary
    far[list(fewest)] = list(fewest.values())
    return far


def route_gain(table: States, stops: np.ndarray) -> np.ndarray:
    """(4, len(stops)): how many moves each move from each of ``stops`` takes off the fewest to
    the exit, -1 to 1: 1 on a way of fewest moves, 0 beside one, -1 away from it or into a trap
    (0 for no move)."""
    far = to_exit(table)
    ends = table.dest[:, stops]
    valid = ends != NO_MOVE
    there = far[np.where(valid, ends, 0)]
    with np.errstate(invalid="ignore"):
        gain = np.clip(far[stops][None, :] - there, -1.0, 1.0)
    return np.where(valid, np.nan_to_num(gain, nan=-1.0), 0.0)


def toward(table: States, stops: np.ndarray, height: int | None, foresight: int) -> np.ndarray:
    """(4, len(stops)): how much nearer the exit each move from each of ``stops`` brings a
    player who looks ``foresight`` moves ahead, over the grid's larger side (0 for no move)."""
    rows_of = height or (table.cells // table.width)
    width = table.width
    gr, gc = divmod(int(table.goal % table.cells), width)
    r, c = np.divmod(stops % table.cells, width)
    here = np.abs(r - gr) + np.abs(c - gc)
    ends = table.dest[:, stops]
    valid = ends != NO_MOVE
    there = nearest(table, foresight)[np.where(valid, ends, 0)]
    return np.where(valid, (here[None, :] - there) / max(rows_of, width), 0.0)
