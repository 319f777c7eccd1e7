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

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from designer.core import kernels
from designer.core.budget import add_work
from designer.core.level import Level
from designer.core.terrain import Cell

#: Directions in their fixed order; the index is used throughout (tables, tie-breaks).
DIRECTIONS = "udlr"
DELTAS = ((-1, 0), (1, 0), (0, -1), (0, 1))
NO_MOVE = -1
#: The nominal seconds one slide traced in Python (``trace``) costs, as the project's machine
#: measures it (about 10 us, ``state_table`` of a level with items and portals included): what it
#: reports to the work clock (``designer.core.budget.add_work``).
TRACE_SECONDS = 10e-6


def slide_table(level: Level, capture: Cell | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(dest, length)``, each of shape (4, H*W), for the level.

    ``capture`` is the cell that stops a slide on it (the goal unless given; the reverse level
    captures at the start instead). A level with portals, floors or wrap-around is traced slide
    by slide (``trace``); a plain one runs the kernels.
    """
    goal = level.goal if capture is None else capture
    if not level.plain:
        return traced_table(level, level.index(goal))
    return terrain_slide_table(level.terrain, level.index(goal))


class Slide(NamedTuple):
    """One slide of a level with portals, floors or wrap-around (``trace``): the cells it enters
    in order (ending with a portal's target when it falls into one), the cells slid to reach each
    of them (a target counts as its portal), and what stopped it: the rock or edge cell beyond
    its end, the snow or portal cell it entered, or None when the last cell entered captured."""

    path: tuple[int, ...]
    lengths: tuple[int, ...]
    portal: bool  # the slide fell into a portal: its last cell is the target
    loops: bool = (
        False  # nothing stops it: ``path`` holds its first two rounds (``trace(laps=True)``)
    )


def trace(
    level: Level,
    cell: int,
    d: int,
    capture: int = -1,
    laps: bool = False,
    portals: dict[int, int] | None = None,
) -> Slide | None:
    """The slide from flat cell ``cell`` in direction ``d`` of a level with portals, floors or
    wrap-around, or None when it is not a move (blocked at once, or it would run round a
    wrapping row or column for ever, or it ends where it began). ``capture`` (a flat cell, or -1) ends the slide on it.

    The rule (docs/spec.md, "Portals and wrap-around"): the player slides while the next cell is
    on their floor (or, past a wrapping edge, at the opposite edge of it) and not rock; entering
    snow or the ``capture`` cell ends the slide there; entering a portal cell ends it too, and puts
    the player at rest on the portal's target (resting there triggers nothing).

    With ``laps``, a slide that would run round for ever is returned too, flagged ``loops``, with
    its first two rounds: on a level with items, a goal passed closed in the first round may
    capture in the second, once the round's items are taken (``designer.core.items``).
    """
    add_work(TRACE_SECONDS)
    width = level.width
    terrain = level.terrain.reshape(-1)
    r, c = divmod(cell, width)
    if terrain[cell] == 1:  # ROCK
        return None
    floor = level.floor_of((r, c))
    dr, dc = DELTAS[d]
    top, bottom = floor.top, floor.top + floor.height
    # (flat cell: flat target), given by a caller
    portals = portal_index(level) if portals is None else portals
    path, lengths = [], []
    run = floor.width if dc else floor.height  # more steps than this without a stop: round for ever
    while True:
        nr, nc = r + dr, c + dc
        if not (top <= nr < bottom):
            if "y" not in floor.wrap:
                break
            nr = top if nr >= bottom else bottom - 1
        if not (0 <= nc < floor.width):
            if "x" not in floor.wrap:
                break
            nc = 0 if nc >= floor.width else floor.width - 1
        nxt = nr * width + nc
        if terrain[nxt] == 1:
            break
        r, c = nr, nc
        path.append(nxt)
        lengths.append(len(path))
        if nxt in portals:
            path.append(portals[nxt])
            lengths.append(len(lengths))
            # back on the cell it left: no move (with ``laps``, items taken along count: the
            # caller's)
            return Slide(tuple(path), tuple(lengths), True) if laps or path[-1] != cell else None
        if terrain[nxt] == 2 or nxt == capture:  # SNOW
            break
        if len(path) > run:
            if not laps:
                return None
            if len(path) > 2 * run:
                return Slide(tuple(path), tuple(lengths), False, True)
    return (
        Slide(tuple(path), tuple(lengths), False) if path and (laps or path[-1] != cell) else None
    )


def portal_index(level: Level) -> dict[int, int]:
    """The level's portals as flat cells: {portal: target} (``trace`` takes it, to build it once)."""
    return {level.index(src): level.index(dst) for src, dst in level.portals}


def traced_table(level: Level, capture: int) -> tuple[np.ndarray, np.ndarray]:
    """``slide_table`` of a level with portals, floors or wrap-around: the kernels walk each line
    of each floor once, back from where slides stop, so that a cell's slide is its neighbour's
    one cell longer (``kernels.passage_table``; the rule is ``trace``'s, and the tests hold the
    two to the same table, compiled and numpy alike)."""
    floors = [
        (f.top, f.height, f.width, ("x" in f.wrap) | ("y" in f.wrap) << 1)
        for f in level.floor_list()
    ]
    portal_of = np.full(level.height * level.width, -1, np.int32)
    for cell, target in portal_index(level).items():
        portal_of[cell] = target
    return kernels.passage_table(level.terrain, floors, portal_of, capture)


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


def behind(rock: np.ndarray, width: int, at: int, d: int) -> np.ndarray:
    """The flat cells 1, 2, ... steps behind cell ``at`` against direction ``d``, nearest first, up
    to the first rock or the grid's edge (``rock``: a flat mask of the grid's rock, ``width``
    wide): the cells whose slide in ``d`` may pass ``at`` or stop on it.

    >>> behind(np.array([True, False, False, False]), 4, 3, 3).tolist()
    [2, 1]
    """
    height = rock.size // width
    r, c = divmod(at, width)
    dr, dc = DELTAS[d]
    steps = np.arange(1, (height if dr else width))
    rows, cols = r - dr * steps, c - dc * steps
    inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
    flat = (rows * width + cols)[inside]
    blocked = rock[flat]
    return flat[: int(np.argmax(blocked)) if blocked.any() else len(flat)]


def slide_takes(
    rock: np.ndarray, width: int, d: int, reach: np.ndarray, things: Iterable[tuple[int, int]]
) -> np.ndarray:
    """What the straight slides in direction ``d`` take, as masks: bit k where a slide passes or
    stops on the cell of thing k (``things``: pairs of k and a flat cell), that is, where it starts
    behind the thing on its line (``behind``) and slides as far: ``reach[state]`` cells. The
    states are the grid's cells, or copies of them (a cave's cells for each set of keys held:
    ``designer.caves.graph.states``), state s on cell s mod cells. A level's coins and items
    (``designer.analysis.tour_tables``), a cave's coins and its keys are taken by this rule.

    >>> slide_takes(np.zeros(4, bool), 4, 3, np.array([3, 2, 1, 0]), [(0, 2)]).tolist()
    [1, 1, 0, 0]
    """
    cells = rock.size
    taken = np.zeros(reach.size, np.int64)
    for k, at in things:
        line = behind(rock, width, at, d)
        steps = np.arange(1, len(line) + 1)
        for layer in range(0, reach.size, cells):
            states = line + layer
            taken[states[reach[states] >= steps]] |= np.int64(1) << np.int64(k)
    return taken
