"""glissade's levels (a public browser ice-puzzle game), read as they are.

glissade keeps its levels in one ``levels.json``: a list of objects, each with ``data`` (the rows),
``thresholds`` (the most moves for 3, 2 and 1 stars: ``thresholds[0]`` is its par), a ``name``,
and ``connections`` for its holes. Its characters: ``P`` the player (the start), ``X`` the exit
(the goal), ``O`` a hole (a portal), ``$`` and ``G`` coins, a space or ``.`` ice, and every
other character (``#`` rock, ``T`` a tree, ``Y`` a flower, a no-break space, ...) stops a slide
as rock does, as glissade's own solver has it. Every glissade level wraps: a slide that leaves an
edge comes back at the opposite one (glissade's solver takes every cell modulo the size), so an
axis wraps here wherever an edge of it is open.

Holes: ``connections`` lists each hole's target (``src`` -> ``dst``, ``x`` the column and ``y``
the row); a level that lists none and has two holes makes them each other's target. Coins: the
exit does not wait for them in glissade (a coin is worth points), but the par of a level with
coins is that of the tour that takes them all. So coins are read as items (docs/spec.md "Items":
coins are read as coins (docs/spec.md "Coins": the exit never waits for them, and the full
clear takes them all: ``designer.analysis.tour``), as glissade counts them. ``coins="items"``
reads them as items instead (the goal opens once all are taken, at most ``MAX_ITEMS``), and
``coins="ice"`` as ice.

>>> level = read_level({"data": ["#####", "#P X#", "#####"], "thresholds": [1, 2, 3], "name": "t"})
>>> level.level.rows(), level.par, level.stars
(['#####', '#S.G#', '#####'], 1, (1, 2, 3))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from designer.core.errors import LevelError
from designer.core.floors import Floor
from designer.core.level import Level
from designer.core.limits import MAX_ITEMS
from designer.core.terrain import ICE, ROCK

#: glissade's characters that do not stop a slide (its ``Tile.Ice``, ``Marker`` and coins).
OPEN = " .$G"
COINS = "$G"
COIN_CHOICES = ("coins", "items", "ice")


@dataclass(frozen=True)
class GlissadeLevel:
    """One level of glissade's as read: the level, its name, index (from 0) in the file, par
    (``thresholds[0]``: the most moves for 3 stars), star thresholds, its coins and how they were read."""

    level: Level
    name: str
    index: int
    par: int | None
    stars: tuple[int, ...]
    coins: tuple[tuple[int, int], ...]
    coins_as: str  # "coins", "items", "ice" or "" (no coins)


def file_name(index: int, name: str) -> str:
    """``NN-name.json``: a level's number in the game (from 01) and its name, in lower-case ASCII.

    >>> file_name(8, "Around The World")
    '09-around-the-world.json'
    """
    import re

    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "level"
    return f"{index + 1:02d}-{slug}.json"


def record(found: GlissadeLevel) -> dict:
    """The ``generator`` record of a level read from glissade: the game, the level's name and
    number, its published par and thresholds, and how its coins were read."""
    return {
        "method": "import",
        "game": "glissade",
        "name": found.name,
        "number": found.index + 1,
        "par": found.par,
        "thresholds": list(found.stars),
        **({"coins": found.coins_as} if found.coins else {}),
    }


def is_glissade(obj: object) -> bool:
    """Whether a JSON value is glissade's: one level object with ``data`` rows, or a list of them."""

    def one(item) -> bool:
        return (
            isinstance(item, dict) and isinstance(item.get("data"), list) and "format" not in item
        )

    return one(obj) or (isinstance(obj, list) and bool(obj) and all(one(item) for item in obj))


def read_levels(obj: object, coins: str = "coins") -> list[GlissadeLevel]:
    """Every level of a glissade ``levels.json`` (a list) or of one level object."""
    if not is_glissade(obj):
        raise LevelError('not glissade\'s levels: a list of objects with "data" rows was expected')
    items = obj if isinstance(obj, list) else [obj]
    found = []
    for k, item in enumerate(items):
        try:
            found.append(read_level(item, coins, k))
        except LevelError as exc:
            raise LevelError(
                f"glissade level {k + 1} ({str(item.get('name', ''))[:40]!r}): {exc}"
            ) from None
    return found


def read_level(obj: dict, coins: str = "coins", index: int = 0) -> GlissadeLevel:
    """One glissade level object as a Level (see the module docstring)."""
    if coins not in COIN_CHOICES:
        raise LevelError(f"coins must be one of {', '.join(COIN_CHOICES)}, not {coins!r}")
    rows = obj.get("data")
    if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
        raise LevelError('"data" must be a non-empty list of strings')
    height, width = len(rows), len(rows[0])
    if any(len(row) != width for row in rows) or not width:
        raise LevelError('ragged rows: every row of "data" must be as long as the first')
    if height > 1000 or width > 1000:
        raise LevelError(f"a {height}x{width} level is too large")
    terrain = np.full((height, width), ROCK, np.uint8)
    found: dict[str, list[tuple[int, int]]] = {"P": [], "X": [], "O": [], "$": []}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in OPEN or ch in "PXO":
                terrain[r, c] = ICE
            found.setdefault("$" if ch in COINS else ch, []).append((r, c))
    for ch, name in (("P", "player (P)"), ("X", "exit (X)")):
        if len(found[ch]) != 1:
            raise LevelError(f"{len(found[ch])} {name} cells: exactly one is needed")
    holes = found["O"]
    portals = _holes(obj.get("connections"), holes, height, width)
    coin_cells = tuple(sorted(found["$"]))
    as_items = bool(coin_cells) and coins == "items"
    if as_items and len(coin_cells) > MAX_ITEMS:
        raise LevelError(
            f"{len(coin_cells)} coins: at most {MAX_ITEMS} are read as items (coins=ice reads them as ice)"
        )
    wrap = ("x" if (terrain[:, 0] != ROCK).any() or (terrain[:, -1] != ROCK).any() else "") + (
        "y" if (terrain[0] != ROCK).any() or (terrain[-1] != ROCK).any() else ""
    )
    level = Level(
        terrain,
        found["P"][0],
        found["X"][0],
        "glissade",
        coin_cells if as_items else (),
        portals,
        (Floor("", 0, height, width, wrap),),
        coin_cells if coins == "coins" else (),
    )
    thresholds = obj.get("thresholds")
    stars = (
        tuple(thresholds)
        if isinstance(thresholds, list)
        and all(type(t) is int and t > 0 for t in thresholds)
        and thresholds
        else ()
    )
    given = obj.get("name")
    name = given if isinstance(given, str) else ""
    return GlissadeLevel(
        level,
        name,
        index,
        stars[0] if stars else None,
        stars,
        coin_cells,
        coins if coin_cells else "",
    )


def _holes(connections, holes: list[tuple[int, int]], height: int, width: int):
    """The portals of glissade's holes: its ``connections`` (x: column, y: row), or, with none
    listed, two holes each the other's target."""
    if connections is None or connections == []:
        if not holes:
            return ()
        if len(holes) != 2:
            raise LevelError(
                f'{len(holes)} holes and no "connections": only two holes pair by themselves'
            )
        return ((holes[0], holes[1]), (holes[1], holes[0]))
    if not isinstance(connections, list):
        raise LevelError('"connections" must be a list')
    portals, hole_set = {}, set(holes)
    for link in connections:
        try:
            src = (link["src"]["y"], link["src"]["x"])
            dst = (link["dst"]["y"], link["dst"]["x"])
        except (TypeError, KeyError):
            raise LevelError(
                'each connection needs "src" and "dst", each with "x" and "y"'
            ) from None
        for cell in (src, dst):
            if not all(type(v) is int for v in cell) or cell not in hole_set:
                raise LevelError(f"connection {_xy(cell)} is not a hole (O)")
        if src in portals:
            raise LevelError(f"hole {_xy(src)} is given two targets")
        portals[src] = dst
    for hole in holes:
        if hole not in portals:
            raise LevelError(f"hole {_xy(hole)} leads nowhere: no connection starts there")
    return tuple(portals.items())


def _xy(cell) -> str:
    return f"(x {cell[1]}, y {cell[0]})"


def replay(found: GlissadeLevel, moves: str) -> str | None:
    """Play ``moves`` under glissade's own rule, where the exit ends the game even with coins left:
    None when they run into the exit with the last move, every coin taken; else why not, in a few
    words. (A solution found with the coins as items may pass over the closed goal; glissade's
    player would leave there.)"""
    from designer.core.rules import DIRECTIONS, trace

    level = found.level
    coins = {level.index(cell) for cell in found.coins}
    goal, cell = level.index(level.goal), level.index(level.start)
    got: set[int] = set()
    for k, letter in enumerate(moves):
        slide = trace(level, cell, DIRECTIONS.index(letter), goal, laps=True)
        # no move: blocked, round and round for ever, or back onto its cell with no coin taken
        if (
            slide is None
            or slide.loops
            or (slide.path[-1] == cell and not coins.intersection(slide.path) - got)
        ):
            return f"move {k + 1} ({letter}) does not move the player"
        got |= coins.intersection(slide.path)
        cell = slide.path[-1]
        if cell == goal:
            if k + 1 < len(moves):
                return f"move {k + 1} runs into the exit with {len(coins - got)} coins left"
            break
    if cell != goal:
        return "the moves end before the exit"
    return f"{len(coins - got)} coins are left" if coins - got else None
