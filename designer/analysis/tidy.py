"""Tidy levels: every tile the designer placed is needed (``--tidy``; 002's cleanup, made a guarantee).

A placed tile is a rock or snow tile on a free cell (frame and template cells are exempt). It is
*needed* when turning it into ice breaks the request: the level is no longer strong, no longer
reversible, or its min stops leave the band (fewer than the floor, or more than ``max_stops``).
The floor is the request's K; when maximizing, it is the level's own min stops, so a tile whose
removal keeps the count is not needed there either. The rock budget and the snow count are left
out of this test: turning a tile into ice only lowers them, and the exact snow count would make
every snow tile "needed" for a reason that has nothing to do with the puzzle.

``tidy`` turns spare rocks into ice, one at a time (each removal keeps the request met), until
none is spare. A spare snow tile cannot be fixed that way under an exact snow count, nor by moving
it (the level without it already meets the request, wherever it was), so such a level is not
tidy-able and the search goes on.
"""

from __future__ import annotations

import numpy as np

from designer.analysis.classify import classify, classify_batch, items_matter
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.space import LayoutSpace
from designer.core.terrain import ICE, ROCK, SNOW


def placed_tiles(request: LayoutRequest, level: Level) -> list[tuple[int, int]]:
    """The rock and snow tiles on free cells, in row-major order."""
    return [cell for cell in request.free_cells() if level.terrain[cell] in (ROCK, SNOW)]


def spare_tiles(
    request: LayoutRequest, level: Level, floor: int, tiles: list | None = None
) -> list[tuple[int, int]]:
    """The placed tiles (or those of ``tiles``) that are not needed: turned into ice, the level
    still meets the request."""
    tiles = placed_tiles(request, level) if tiles is None else tiles
    if not tiles:
        return []
    if level.items:  # on its states, one tile at a time; every item must still matter
        return [cell for cell in tiles if _holds(request, _as_ice(level, cell), floor)]
    batch = np.repeat(level.terrain[None], len(tiles), axis=0)
    for k, cell in enumerate(tiles):
        batch[k][cell] = ICE
    count = len(tiles)
    classes, reversible, stops = classify_batch(
        batch, np.full(count, level.index(level.start)), np.full(count, level.index(level.goal))
    )
    holds = LayoutSpace.of(request).admissible(
        batch, classes, reversible, stops, floor=floor, budgets=False
    )
    return [cell for cell, spare in zip(tiles, holds) if spare]


def _as_ice(level: Level, cell) -> Level:
    terrain = level.terrain.copy()
    terrain[cell] = ICE
    return level.replace(terrain=terrain)


def _holds(request: LayoutRequest, level: Level, floor: int) -> bool:
    """Whether a level with items still meets the request's conditions a spare tile keeps."""
    found = classify(level)
    stops = found.min_stops
    if stops is None:  # unsolvable
        return False
    return (
        found.pokemon
        and stops >= floor
        and (request.max_stops is None or stops <= request.max_stops)
        and items_matter(level, stops)
    )


def is_tidy(request: LayoutRequest, level: Level, floor: int) -> bool:
    return not spare_tiles(request, level, floor)


def tidy(request: LayoutRequest, level: Level, floor: int) -> Level | None:
    """``level`` with its spare rocks turned into ice until every placed tile is needed, or None
    when a spare snow tile makes that impossible."""
    while True:
        spare = spare_tiles(request, level, floor)
        if not spare:
            return level
        rocks = [cell for cell in spare if level.terrain[cell] == ROCK]
        if not rocks:
            return None  # only snow is spare, and the snow count must stay
        terrain = level.terrain.copy()
        terrain[rocks[0]] = ICE
        level = level.replace(terrain=terrain)
