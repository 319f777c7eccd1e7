"""The mechanics a game's worlds teach, one table (``MECHANICS``): for each, what its teaching
level asks, what a practice level of it asks, and what "taken away" means (docs/spec.md,
"Games"):

- **snow**: each snow tile as ice;
- **items**: the items gone (the exit open from the start);
- **coins**: the coins gone (the full clear is the way to the exit);
- **teleports**: each teleport cell as plain ice;
- **wrap**: no edge wraps (a slide stops at the edge, as at a wall);
- **floors**: each ladder and hole as a wall (rock).

A level asked here is an *ask* (``designer.ops.asks``: the fields given, by name), as a shell
gives ``make``.

>>> from designer.core.level import Level
>>> level = Level.from_ascii("#####\\n#S._#\\n#...#\\n#..G#\\n#####")
>>> print(MECHANICS["snow"].away(level))
#####
#S..#
#...#
#..G#
#####
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from designer.core.level import Level
from designer.core.terrain import ICE, ROCK, SNOW

Size = tuple[int, int]


@dataclass(frozen=True)
class Mechanic:
    """One mechanic: its ``name``, the ``words`` a sentence says it in, what taking it away
    does (``taken_away``, in words; ``away``, the level without it), the least predicted
    difficulty a level with it is measured to reach (``lowest``), what the cave that ends its world
    holds of it (its floors, ``cave_floors``; snow cells in each main room, ``cave_snow``; coins,
    ``cave_coins``: a cave's rooms hold no teleports and do not wrap), and the ask of a level with
    it of a size (``ask``; a teaching level's is the smallest size, ``teach_size``, with
    ``teach_stops`` its band of min stops)."""

    name: str
    words: str
    taken_away: str
    away: Callable[[Level], Level]
    ask: Callable[[Size, int], dict]
    lowest: float = 2.0
    cave_floors: int = 1
    cave_snow: int = 0
    cave_coins: int = 0
    teach_size: Size = (7, 7)
    teach_stops: tuple[int, int] = (3, 5)
    #: Whether a level on a mechanic's drawn grid (wrap, floors) may bring it back: snow to place
    #: on a drawn grid missed every target of 5.3 (``floors`` and ``wrap``, 7 and 8 tries, 34-37 s),
    #: and an item took 19 s (``floors``) and 58 s (``wrap``, its slides traced in Python), where
    #: teleports and coins met it in 0.6-1.1 s.
    on_templates: bool = True

    @property
    def drawn(self) -> bool:
        """Whether its levels are drawn on a grid of its own (a template: wrap, floors), which no
        style of layout (``designer.game.styles``) is laid on."""
        return "template" in self.ask(self.teach_size, 0)

    @property
    def by_rule(self) -> bool:
        """Whether every solution uses the mechanic by the rules themselves (an item must be
        taken before the exit opens; a full clear takes every coin)."""
        return self.name in ("items", "coins")


def _snow_as_ice(level: Level) -> Level:
    terrain = level.terrain.copy()
    terrain[terrain == SNOW] = ICE
    return replace(level, terrain=terrain)


def _no_items(level: Level) -> Level:
    return replace(level, items=())


def _no_coins(level: Level) -> Level:
    return replace(level, coins=())


def _no_portals(level: Level) -> Level:
    return replace(level, portals=())


def _no_wrap(level: Level) -> Level:
    return replace(level, floors=tuple(replace(floor, wrap="") for floor in level.floors))


def _ladders_as_walls(level: Level) -> Level:
    terrain = level.terrain.copy()
    for portal, _ in level.portals:
        terrain[portal] = ROCK
    return replace(level, terrain=terrain, portals=())


def framed(size: Size, inside: str = "?") -> list[str]:
    """A template's rows: a frame of rock round free cells (``inside``)."""
    h, w = size
    return ["#" * w, *(["#" + inside * (w - 2) + "#"] * (h - 2)), "#" * w]


def wrap_template(size: Size, seed: int) -> tuple[str, ...]:
    """A grid of ``size`` that wraps left to right: rock along the top and the bottom, the rest
    the designer's (the side edges open where it leaves them ice)."""
    h, w = size
    axis = "x" if seed % 2 == 0 else "y"
    if axis == "x":
        rows = ["#" * w, *(["?" * w] * (h - 2)), "#" * w]
    else:
        rows = ["#" + "?" * (w - 2) + "#"] * h
    return (f"wrap {axis}", *rows)


def floors_template(size: Size, seed: int, hole: bool) -> tuple[str, ...]:
    """Two floors, each half of ``size`` (at least 4 rows), framed, with a ladder between them
    (``a`` above, ``b`` below) and, with ``hole``, a hole above (``c``) into the floor below
    (``d``), at cells the seed picks."""
    h, w = size
    half = max(4, h // 2)
    rng = np.random.default_rng(seed)
    top = [list(row) for row in framed((half, w))]
    bottom = [list(row) for row in framed((half, w))]
    inner = [(r, c) for r in range(1, half - 1) for c in range(1, w - 1)]
    picks = rng.permutation(len(inner))
    marks = [("a", top), ("b", bottom)] + ([("c", top), ("d", bottom)] if hole else [])
    for k, (mark, grid) in enumerate(marks):
        r, c = inner[int(picks[k])]
        grid[r][c] = mark
    lines = ["floor upper", *("".join(row) for row in top)]
    lines += ["floor lower", *("".join(row) for row in bottom), "portal a b"]
    return tuple(lines + (["portal c > d"] if hole else []))


def _sized(size: Size) -> dict:
    return {"size": size}


#: The mechanics, in the order a game meets them by default.
MECHANICS: dict[str, Mechanic] = {
    one.name: one
    for one in (
        Mechanic(
            "snow",
            "snow",
            "snow as ice",
            _snow_as_ice,
            lambda size, seed: {**_sized(size), "snow": 1 if size[0] <= 8 else 3},
            on_templates=False,
            cave_snow=1,
        ),
        Mechanic(
            "items",
            "an item",
            "the items gone",
            _no_items,
            lambda size, seed: {**_sized(size), "items": 1},
            lowest=3.0,
            on_templates=False,
            teach_size=(8, 8),
            teach_stops=(3, 6),
        ),
        Mechanic(
            "coins",
            "coins",
            "the coins gone",
            _no_coins,
            lambda size, seed: {**_sized(size), "coins": 1 if size[0] <= 8 else 2},
            teach_size=(8, 8),
            cave_coins=2,
        ),
        Mechanic(
            "teleports",
            "a teleport pair",
            "each teleport as plain ice",
            _no_portals,
            lambda size, seed: {**_sized(size), "teleports": 1},
            teach_size=(8, 8),
        ),
        Mechanic(
            "wrap",
            "wrap-around",
            "no edge wrapping",
            _no_wrap,
            lambda size, seed: {"template": wrap_template(size, seed)},
        ),
        Mechanic(
            "floors",
            "floors with a ladder",
            "each ladder and hole as a wall",
            _ladders_as_walls,
            lambda size, seed: {"template": floors_template(size, seed, size[0] > 8)},
            cave_floors=2,
            teach_size=(8, 7),
        ),
    )
}
