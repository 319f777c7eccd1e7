"""How far apart two levels are (docs/spec.md, "Variety"): their layouts under the
grid's symmetries, and the shape of their solutions.

- A level's **tiles** are its cells as what a player sees on each: ice, rock, snow, the start,
  the exit, an item, a coin, a portal or its target.
- The **layout distance** of two levels is the least share of their open cells (not rock in one
  or both) whose tiles differ, over the eight symmetries of the square (rotations and mirror
  images) that lay one level on the other; 1 when no symmetry does (their sizes differ). A frame
  both share counts for nothing, so a small level is not near another for its frame alone.
- A level's **solution shape** is its fewest-moves solution (the solver's) read up to the same
  symmetries: the least of the eight strings its directions map to. A mirror image has the
  same shape; ``ulu`` and ``rur`` have the same shape.
- Two levels are **near copies** when their layouts differ in less than ``NEAR`` of their open
  cells, or when their solutions have the same shape and their layouts differ in less than
  ``SAME_WAY``. A game holds no near copies, and no fewest-moves solution twice (``moves_of``).

>>> from designer.core.level import Level
>>> a = Level.from_ascii("#####\\n#S..#\\n#.#.#\\n#..G#\\n#####")
>>> mirror = Level.from_ascii("#####\\n#..S#\\n#.#.#\\n#G..#\\n#####")
>>> layout_distance(a, mirror), shape(a) == shape(mirror), near_copies(a, mirror)
(0.0, True, True)
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from designer.core.level import Level

#: Near copies: layouts that differ in fewer than this share of their open cells, under the best
#: symmetry. One rock moved on a framed 12x12 changes 2 of about 100 open cells (2%); the closest
#: two levels of the default game differ in far more (docs/spec.md, "Games", gives the figures).
NEAR = 0.15
#: Two levels with one solution shape must differ in at least this share of their open cells.
SAME_WAY = 0.30

#: The tile codes: the terrain's (ice 0, rock 1, snow 2), then these.
ROCK = 1
START, GOAL, ITEM, COIN, PORTAL, TARGET = 3, 4, 5, 6, 7, 8

#: The eight symmetries of the square, each as (turns of a quarter, mirrored), and where each
#: sends the directions u, d, l, r (as their letters).
_TURN = str.maketrans("udlr", "lrdu")  # a quarter turn counter-clockwise (numpy's rot90)
_MIRROR = str.maketrans("udlr", "udrl")  # left and right exchanged (numpy's fliplr)


def tiles(level: Level) -> np.ndarray:
    """The level's cells as tile codes (see the module docstring)."""
    grid = np.array(level.terrain, dtype=np.int8)
    for cells, code in ((level.items, ITEM), (level.coins, COIN)):
        for cell in cells:
            grid[cell] = code
    for portal, target in level.portals:
        grid[portal] = PORTAL
        if grid[target] != PORTAL:
            grid[target] = TARGET
    grid[level.start], grid[level.goal] = START, GOAL
    return grid


def _views(grid: np.ndarray):
    for mirrored in (False, True):
        base = np.fliplr(grid) if mirrored else grid
        for turns in range(4):
            yield np.rot90(base, turns)


def layout_distance(a: Level, b: Level) -> float:
    """The least share of cells whose tiles differ, over the symmetries; 1.0 when the sizes never
    match (or the floors or their wrapping differ)."""
    if _sheet(a) != _sheet(b):
        return 1.0
    mine, theirs = tiles(a), tiles(b)
    best = 1.0
    for view in _views(theirs) if not a.floors else (theirs,):
        if view.shape == mine.shape:
            open_cells = (view != ROCK) | (mine != ROCK)
            best = min(best, float(np.sum(view != mine) / max(1, np.sum(open_cells))))
    return best


def _sheet(level: Level) -> tuple:
    """What a symmetry cannot change: the floors and how they wrap (a level of one grid, its
    cells)."""
    if level.floors:
        return tuple((f.height, f.width, f.wrap) for f in level.floors)
    return (level.height * level.width,)


def shape(level: Level) -> str:
    """The level's solution shape: its fewest-moves solution up to the symmetries ("" when it has
    none)."""
    moves = moves_of(level)
    forms = []
    for mirrored in (False, True):
        turned = moves.translate(_MIRROR) if mirrored else moves
        for _ in range(4):
            forms.append(turned)
            turned = turned.translate(_TURN)
    return min(forms)


@lru_cache(maxsize=4096)
def moves_of(level: Level) -> str:
    """The level's fewest-moves solution as the solver prints it ("" when it has none); solved
    once for a level, however many levels it is compared with."""
    from designer.analysis.solver import solve

    found = solve(level)
    return "" if found is None else found.moves


def apart(level: Level, others: list[Level], solutions: set[str]) -> bool:
    """Whether ``level`` is no near copy of any of ``others`` and its fewest-moves solution is none
    of ``solutions`` (theirs)."""
    return moves_of(level) not in solutions and not any(near_copies(level, one) for one in others)


def near_copies(a: Level, b: Level) -> bool:
    """Whether ``a`` and ``b`` are near copies (see the module docstring)."""
    apart = layout_distance(a, b)
    return apart < NEAR or (apart < SAME_WAY and shape(a) == shape(b))


def closest(levels: list[Level]) -> tuple[float, int, int] | None:
    """The least layout distance between two of ``levels``, and which two (indices); None for
    fewer than two.

    >>> closest([Level.from_ascii("#####\\n#S.G#\\n#####")] * 2)
    (0.0, 0, 1)
    """
    best = None
    for i in range(len(levels)):
        for j in range(i + 1, len(levels)):
            apart = layout_distance(levels[i], levels[j])
            if best is None or apart < best[0]:
                best = (apart, i, j)
    return best
