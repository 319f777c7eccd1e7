"""The level value type and its canonical ASCII form.

A level is an H x W grid of terrain (ice, rock, snow) plus a start and a goal cell, up to
``MAX_ITEMS`` items (``*``) on ice to take before the goal opens (``designer.core.items``), and up
to ``MAX_COINS`` coins (``$``), which the goal never waits for (``designer.analysis.tour``).
``Level.from_ascii`` reads the canonical form and the two common dialects; ``str(level)``
prints the canonical form, and the two round-trip exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from designer.core.errors import LevelError
from designer.core.grid import Grid
from designer.core.limits import MAX_COINS, MAX_ITEMS
from designer.core.terrain import COIN_CHAR, ICE, ITEM_CHAR, ROCK, SNOW, Cell
from designer.core.text_forms import (
    CANONICAL,
    DIALECTS,
    Dialect,
    detect_dialect,
    extended_parts,
    scan_rows,
    trim_lines,
)

if TYPE_CHECKING:  # loaded only for a level with floors or portals (start-up of the plain commands)
    from designer.core.floors import Floor


@dataclass(frozen=True, eq=False)
class Level(Grid):
    """An immutable level: ``terrain`` (H x W uint8 of ICE/ROCK/SNOW), ``start`` and ``goal``, and
    the sorted cells of its ``items`` (``designer.core.items``) and ``coins`` (``designer.analysis.tour``)."""

    terrain: np.ndarray
    start: Cell
    goal: Cell
    dialect: str = field(default="canonical", compare=False)
    items: tuple[Cell, ...] = ()
    portals: tuple[tuple[Cell, Cell], ...] = ()  # (portal cell, its target), sorted
    floors: tuple[Floor, ...] = ()  # none: one grid that does not wrap
    coins: tuple[Cell, ...] = ()
    kind_name: ClassVar[str] = "level"
    end_chars: ClassVar[str] = "SG"

    def ends(self) -> list[tuple[str, Cell]]:
        return [("start", self.start), ("goal", self.goal)]

    def route_levels(self) -> list[tuple[str, Level]]:
        return [("", self)]

    def __post_init__(self) -> None:
        terrain = np.array(self.terrain, dtype=np.uint8, copy=True)
        if terrain.ndim != 2 or terrain.shape[0] < 1 or terrain.shape[1] < 1:
            raise LevelError("a level needs at least one row and one column")
        if terrain.max(initial=0) > SNOW:
            raise LevelError("terrain codes must be ICE (0), ROCK (1) or SNOW (2)")
        terrain.setflags(write=False)
        object.__setattr__(self, "terrain", terrain)
        start = (int(self.start[0]), int(self.start[1]))
        goal = (int(self.goal[0]), int(self.goal[1]))
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "goal", goal)
        for name, (r, c) in (("start", start), ("goal", goal)):
            if not (0 <= r < self.height and 0 <= c < self.width):
                raise LevelError(
                    f"{name} ({r}, {c}) lies outside the {self.height}x{self.width} grid"
                )
            if terrain[r, c] != ICE:
                raise LevelError(f"{name} ({r}, {c}) must be on an ice cell")
        # with items: a vault's route, out to take them all and back
        if start == goal and not self.items:
            raise LevelError(f"start and goal are the same cell ({start[0]}, {start[1]})")
        object.__setattr__(self, "items", check_items(terrain, self.items, (start, goal)))
        object.__setattr__(
            self, "coins", check_items(terrain, self.coins, (start, goal, *self.items), "coin")
        )
        floors = tuple(self.floors)
        if len(floors) == 1 and not floors[0].name and not floors[0].wrap:
            floors = ()  # one unnamed grid that does not wrap: the plain level
        if floors:
            from designer.core.floors import check_floors

            check_floors(floors, *terrain.shape)
        object.__setattr__(self, "floors", floors)
        object.__setattr__(self, "portals", check_portals(self, terrain, self.portals))

    # --- cells -----------------------------------------------------------------
    def index(self, cell: Cell) -> int:
        """Flat index of a cell (row-major)."""
        return cell[0] * self.width + cell[1]

    def cell(self, index: int) -> Cell:
        """The (row, col) of a flat index."""
        return divmod(int(index), self.width)

    # --- value semantics -------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Level):
            return NotImplemented
        return (
            self.start == other.start
            and self.goal == other.goal
            and self.terrain.shape == other.terrain.shape
            and bool(np.array_equal(self.terrain, other.terrain))
            and self.items == other.items
            and self.portals == other.portals
            and self.floors == other.floors
            and self.coins == other.coins
        )

    def __hash__(self) -> int:
        key: tuple = (self.start, self.goal, self.terrain.shape, self.terrain.tobytes())
        if not self.plain:
            key += (self.portals, self.floors)
        key += (self.items,) if self.items else ()
        return hash(key + (self.coins,) if self.coins else key)

    def swapped(self) -> Level:
        """The same grid with start and goal exchanged (the reverse level), items, portals and all."""
        return Level(
            self.terrain,
            self.goal,
            self.start,
            self.dialect,
            self.items,
            self.portals,
            self.floors,
            self.coins,
        )

    def replace(
        self,
        *,
        terrain=None,
        start: Cell | None = None,
        goal: Cell | None = None,
        items: tuple[Cell, ...] | None = None,
        portals=None,
        coins: tuple[Cell, ...] | None = None,
    ) -> Level:
        return Level(
            self.terrain if terrain is None else terrain,
            self.start if start is None else start,
            self.goal if goal is None else goal,
            self.dialect,
            self.items if items is None else items,
            self.portals if portals is None else portals,
            self.floors,
            self.coins if coins is None else coins,
        )

    @property
    def framed(self) -> bool:
        """The level has a rock frame: every border cell is rock, but for the start and goal,
        which may sit in it (the gaps of a Pokemon map). Pictures, maps and the play page draw
        such a frame as wall, apart from the rocks placed inside it.

        >>> Level.from_rows(["##G#", "#..#", "#S.#", "####"]).framed
        True
        >>> Level.from_rows(["S..", ".#.", "..G"]).framed
        False
        """
        return is_framed(self.terrain, (self.start, self.goal))

    # --- text ------------------------------------------------------------------
    def rows(self) -> list[str]:
        """The canonical ASCII rows (of the whole sheet, each portal and target by its mark, when
        the level has floors or portals: ``designer.core.floors``)."""
        chars = np.array([".", "#", "_"])[self.terrain]
        chars[self.start] = "S"
        chars[self.goal] = "G"
        for cell in self.items:
            chars[cell] = ITEM_CHAR
        for cell in self.coins:
            chars[cell] = COIN_CHAR
        self._mark_portals(chars)
        return ["".join(row) for row in chars]

    def __str__(self) -> str:
        return "\n".join(self.text_lines())

    def __repr__(self) -> str:
        return f"Level.from_ascii({str(self)!r})"

    @classmethod
    def from_rows(cls, rows: list[str], dialect: Dialect = CANONICAL) -> Level:
        """Build a level from rows already split into lines, in a known dialect."""
        return _parse_rows(rows, dialect)

    @classmethod
    def from_ascii(cls, text: str, dialect: str | None = None) -> Level:
        """Parse ASCII in the canonical form or a dialect (detected unless named).

        The dialect seen is kept in ``level.dialect``. Bad input raises LevelError with one
        line naming the row and column (zero-based, as everywhere in this project).
        """
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        from designer.core.floors import is_extended

        if is_extended(lines):
            if dialect not in (None, "canonical"):
                raise LevelError(
                    "floors, wrap-around and portals are written in the canonical dialect only"
                )
            return _parse_extended(text)
        chosen = DIALECTS[dialect] if dialect else detect_dialect(lines)
        return _parse_rows(trim_lines(lines, chosen), chosen)


def check_portals(level: Level, terrain: np.ndarray, portals) -> tuple[tuple[Cell, Cell], ...]:
    """The portals, sorted: each a distinct ice cell with a target on another ice cell, neither
    of them the start, the goal or an item; LevelError (one line) otherwise."""
    found = tuple(sorted(((int(a), int(b)), (int(c), int(d))) for (a, b), (c, d) in portals))
    h, w = terrain.shape
    sources = set()
    for src, dst in found:
        for name, (r, c) in (("portal", src), ("target", dst)):
            if not (0 <= r < h and 0 <= c < w):
                raise LevelError(f"{name} ({r}, {c}) lies outside the {h}x{w} grid")
        if terrain[src] != ICE:
            raise LevelError(f"portal ({src[0]}, {src[1]}) must be on an ice cell")
        if src in (level.start, level.goal) or src in level.items or src in level.coins:
            raise LevelError(
                f"portal ({src[0]}, {src[1]}) lies on the start, the goal, an item or a coin"
            )
        if src in sources:
            raise LevelError(f"portal ({src[0]}, {src[1]}) is given two targets")
        sources.add(src)
        if dst in (level.start, level.goal) or dst in level.items or dst in level.coins:
            raise LevelError(
                f"portal ({src[0]}, {src[1]}) leads onto the start, the goal, an item or a coin "
                f"at ({dst[0]}, {dst[1]})"
            )
        if terrain[dst] != ICE:
            raise LevelError(
                f"portal ({src[0]}, {src[1]}) leads off the ice, to ({dst[0]}, {dst[1]})"
            )
        if dst == src:
            raise LevelError(f"portal ({src[0]}, {src[1]}) leads to itself")
    if found:
        floors = level.floor_list()
        for cell in {cell for pair in found for cell in pair}:
            if not any(floor.holds(cell) for floor in floors):
                raise LevelError(f"portal or target ({cell[0]}, {cell[1]}) lies on no floor")
    return found


def check_items(terrain: np.ndarray, items, ends, what: str = "item") -> tuple[Cell, ...]:
    """The item (or coin) cells, sorted: each on an ice cell inside the grid, none twice, none on
    an end (a start or goal, a door; for a coin, an item too), at most MAX_ITEMS (MAX_COINS);
    LevelError (one line) otherwise."""
    cells = tuple(sorted((int(r), int(c)) for r, c in items))
    most = MAX_ITEMS if what == "item" else MAX_COINS
    if len(cells) > most:
        raise LevelError(f"{len(cells)} {what}s: a level holds at most {most}")
    h, w = terrain.shape
    for k, (r, c) in enumerate(cells):
        if not (0 <= r < h and 0 <= c < w):
            raise LevelError(f"{what} ({r}, {c}) lies outside the {h}x{w} grid")
        if terrain[r, c] != ICE:
            raise LevelError(f"{what} ({r}, {c}) must be on an ice cell")
        if (r, c) in ends:
            raise LevelError(
                f"{what} ({r}, {c}) lies on an end of the level"
                + (" or an item" if what == "coin" else "")
            )
        if k and cells[k - 1] == (r, c):
            raise LevelError(f"two {what}s on ({r}, {c})")
    return cells


def is_framed(terrain: np.ndarray, gaps) -> bool:
    """Whether every border cell of ``terrain`` is rock, but for the ``gaps`` (the ends, or a
    room's doors), at least 3x3."""
    if terrain.shape[0] < 3 or terrain.shape[1] < 3:
        return False
    border = np.ones(terrain.shape, bool)
    border[1:-1, 1:-1] = False
    rock = terrain == ROCK
    for cell in gaps:
        rock[cell] = True
    return bool(rock[border].all())


def _parse_extended(text: str) -> Level:
    """A level in the extended text form (``designer.core.floors``): floors, wrap and portals."""
    rows, floors, portals = extended_parts(text)
    flat = _parse_rows(rows, CANONICAL)
    return Level(
        flat.terrain, flat.start, flat.goal, "canonical", flat.items, portals, floors, flat.coins
    )


def _parse_rows(rows: list[str], dialect: Dialect) -> Level:
    items: list[Cell] = []
    coins: list[Cell] = []
    terrain, starts, goals, doors = scan_rows(rows, dialect, items, coins)
    if doors:
        number, (r, c) = min(doors), doors[min(doors)][0]
        raise LevelError(
            f"a door ({number!r} at row {r}, col {c}) in a level with one start and one goal: "
            f"a room marks its doors 1-9 and no {dialect.start!r} or {dialect.goal!r}"
        )
    for name, found in (("start", starts), ("goal", goals)):
        char = dialect.start if name == "start" else dialect.goal
        if not found:
            raise LevelError(f"no {name}: expected one {char!r}")
        if len(found) > 1:
            (r0, c0), (r1, c1) = found[0], found[1]
            raise LevelError(
                f"{len(found)} {name}s: {char!r} at row {r0}, col {c0} and at row {r1}, col {c1}"
            )
    return Level(terrain, starts[0], goals[0], dialect.name, tuple(items), coins=tuple(coins))
