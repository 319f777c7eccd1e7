"""Rooms with several doors, and their routes.

A room is a grid of terrain (ice, rock, snow) with up to 9 doors, numbered 1 to 9, each on an
ice cell. In ASCII a door is its digit (in every dialect: in the seed dialect ``0`` stays a
rock); a room has no start and no goal character. A **route** A:B runs from door A to door B.
Seen from a route, the room is the classic level with A as the start and B as the goal, every
other door plain ice: ``room.route(a, b)``. Its class, reversibility, min stops and choices are
that level's. With no routes named, a room's routes are every pair of doors i < j. Items (``*``,
``designer.core.items``) belong to the room: every route must take them all. Coins (``$``,
``designer.analysis.tour``) belong to it too: no route waits for them, and each route's full
clear takes them all.

A level with one ``S`` and one ``G`` stays a ``Level``: a two-door room whose one route runs from
S to G, with every rule, output and file as before.

>>> room = Room.from_rows(["##3##", "#...#", "2...#", "#...#", "##1##"])
>>> room.doors
((1, (4, 2)), (2, (2, 0)), (3, (0, 2)))
>>> [f"{a}:{b}" for a, b in room.routes()]
['1:2', '1:3', '2:3']
>>> print(room.route(1, 3))
##G##
#...#
....#
#...#
##S##
>>> Room.from_rows(str(room).splitlines()) == room
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from designer.core.errors import LevelError
from designer.core.grid import Grid
from designer.core.level import Level, check_items, is_framed
from designer.core.limits import MAX_DOORS
from designer.core.terrain import COIN_CHAR, DOOR_CHARS, ICE, ITEM_CHAR, Cell
from designer.core.text_forms import CANONICAL, DIALECTS, Dialect, scan_rows, trim_lines

if TYPE_CHECKING:
    from designer.core.floors import Floor


Route = tuple[int, int]


@dataclass(frozen=True, eq=False)
class Room(Grid):
    """An immutable room: ``terrain`` (H x W uint8 of ICE/ROCK/SNOW) and ``doors``, the pairs
    (number, cell) in the order of their numbers."""

    terrain: np.ndarray
    doors: tuple[tuple[int, Cell], ...]
    dialect: str = field(default="canonical", compare=False)
    items: tuple[Cell, ...] = ()
    portals: tuple[tuple[Cell, Cell], ...] = ()  # (portal cell, its target), sorted: as a level's
    floors: tuple[Floor, ...] = ()  # none: one grid that does not wrap
    coins: tuple[Cell, ...] = ()
    kind_name: ClassVar[str] = "room"
    end_chars: ClassVar[str] = DOOR_CHARS

    def ends(self) -> list[tuple[str, Cell]]:
        return [(str(number), cell) for number, cell in self.doors]

    def route_levels(self) -> list[tuple[str, Level]]:
        return [(f"_{a}_{b}", self.route(a, b)) for a, b in self.routes()]

    def __post_init__(self) -> None:
        terrain = np.array(self.terrain, dtype=np.uint8, copy=True)
        if terrain.ndim != 2 or terrain.shape[0] < 1 or terrain.shape[1] < 1:
            raise LevelError("a room needs at least one row and one column")
        terrain.setflags(write=False)
        object.__setattr__(self, "terrain", terrain)
        doors = tuple(
            sorted((int(number), (int(cell[0]), int(cell[1]))) for number, cell in self.doors)
        )
        object.__setattr__(self, "doors", doors)
        numbers = [number for number, _ in doors]
        if len(doors) < 2 and not (doors and self.items):
            raise LevelError(
                f"a room needs two doors (1-9), or one door and items to take: a vault (not "
                f"{len(doors)} door{'s' if len(doors) != 1 else ''}{' and no item' if doors else ''})"
            )
        if len(doors) > MAX_DOORS or not all(1 <= n <= MAX_DOORS for n in numbers):
            raise LevelError(f"a room has at most {MAX_DOORS} doors, numbered 1 to {MAX_DOORS}")
        if len(set(numbers)) != len(numbers):
            twice = next(n for n in numbers if numbers.count(n) > 1)
            raise LevelError(f"two doors numbered {twice}")
        h, w = terrain.shape
        seen: dict[Cell, int] = {}
        for number, (r, c) in doors:
            if not (0 <= r < h and 0 <= c < w):
                raise LevelError(f"door {number} ({r}, {c}) lies outside the {h}x{w} grid")
            if terrain[r, c] != ICE:
                raise LevelError(f"door {number} ({r}, {c}) must be on an ice cell")
            if (r, c) in seen:
                raise LevelError(f"doors {seen[(r, c)]} and {number} are the same cell ({r}, {c})")
            seen[(r, c)] = number
        object.__setattr__(self, "items", check_items(terrain, self.items, set(seen)))
        object.__setattr__(
            self, "coins", check_items(terrain, self.coins, {*seen, *self.items}, "coin")
        )
        for src, dst in self.portals:
            for cell in (src, dst):
                if tuple(cell) in seen:
                    raise LevelError(
                        f"portal or target ({cell[0]}, {cell[1]}) lies on door {seen[(cell[0], cell[1])]}"
                    )
        # the grid itself (its size and terrain codes), its floors and portals, checked as a level's
        ends = [cell for _, cell in doors[:2]]  # a vault's both on its door
        grid = Level(
            terrain,
            ends[0],
            ends[-1],
            items=self.items,
            portals=self.portals,
            floors=self.floors,
            coins=self.coins,
        )
        object.__setattr__(self, "portals", grid.portals)
        object.__setattr__(self, "floors", grid.floors)

    @property
    def framed(self) -> bool:
        """The room has a rock frame, its doors the gaps in it (see ``Level.framed``)."""
        return is_framed(self.terrain, [cell for _, cell in self.doors])

    def door(self, number: int) -> Cell:
        for n, cell in self.doors:
            if n == number:
                return cell
        raise LevelError(f"the room has no door {number} (its doors: {self.numbers()})")

    def numbers(self) -> str:
        """The door numbers, as "1, 2 and 3"."""
        names = [str(n) for n, _ in self.doors]
        return ", ".join(names[:-1]) + " and " + names[-1]

    @property
    def vault(self) -> bool:
        """A room of one door, a **vault**: its route runs from the door to every item it holds (it
        holds one at least) and back to the door (route ``1:1``)."""
        return len(self.doors) == 1

    def routes(self, asked: list[Route] | None = None) -> list[Route]:
        """The routes ``asked`` (each checked against the doors), or every pair i < j (a vault's:
        its door's route to itself, when it holds items)."""
        if not asked:
            numbers = [n for n, _ in self.doors]
            if self.vault:
                return [(numbers[0], numbers[0])]
            return [(a, b) for k, a in enumerate(numbers) for b in numbers[k + 1 :]]
        for a, b in asked:
            if a == b and not self.vault:
                raise LevelError(
                    f"route {a}:{b} runs from a door to itself (only a vault's, holding items, does)"
                )
            self.door(a), self.door(b)
        return list(dict.fromkeys(asked))

    def route(self, a: int, b: int) -> Level:
        """The room seen from route a:b: the classic level from door a to door b."""
        return Level(
            self.terrain,
            self.door(a),
            self.door(b),
            self.dialect,
            self.items,
            self.portals,
            self.floors,
            self.coins,
        )

    def rows(self) -> list[str]:
        """The canonical ASCII rows, doors as their digits."""
        chars = np.array([".", "#", "_"])[self.terrain]
        for number, cell in self.doors:
            chars[cell] = str(number)
        for cell in self.items:
            chars[cell] = ITEM_CHAR
        for cell in self.coins:
            chars[cell] = COIN_CHAR
        self._mark_portals(chars)
        return ["".join(row) for row in chars]

    def __str__(self) -> str:
        return "\n".join(self.text_lines())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Room):
            return NotImplemented
        return (
            self.doors == other.doors
            and np.array_equal(self.terrain, other.terrain)
            and self.items == other.items
            and self.portals == other.portals
            and self.floors == other.floors
            and self.coins == other.coins
        )

    def __hash__(self) -> int:
        key: tuple = (self.doors, self.terrain.shape, self.terrain.tobytes())
        if not self.plain:
            key += (self.portals, self.floors)
        key = key + (self.items,) if self.items else key
        return hash(key + (self.coins,) if self.coins else key)

    @classmethod
    def from_rows(cls, rows: list[str], dialect: Dialect = CANONICAL) -> Room:
        items: list[Cell] = []
        coins: list[Cell] = []
        terrain, starts, goals, doors = scan_rows(rows, dialect, items, coins)
        if starts or goals:
            (r, c), char = (starts or goals)[0], dialect.start if starts else dialect.goal
            raise LevelError(
                f"{char!r} at row {r}, col {c} in a room with doors: a level marks its ends with "
                f"{dialect.start!r} and {dialect.goal!r}, or its doors with 1-9, not both"
            )
        for number, cells in doors.items():
            if len(cells) > 1:
                (r0, c0), (r1, c1) = cells[0], cells[1]
                raise LevelError(
                    f"{len(cells)} doors numbered {number}: at row {r0}, col {c0} and at row {r1}, col {c1}"
                )
        return cls(
            terrain,
            tuple((number, cells[0]) for number, cells in doors.items()),
            dialect.name,
            tuple(items),
            coins=tuple(coins),
        )

    @classmethod
    def from_ascii(cls, text: str) -> Room:
        """A room in ASCII: the dialect is the one whose tiles spell every other character; a room
        with floors, wrap-around or portals in the extended text form (``designer.core.floors``),
        which is canonical."""
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        from designer.core.floors import is_extended

        if is_extended(lines):
            from designer.core.text_forms import extended_parts

            rows, floors, portals = extended_parts(text)
            flat = cls.from_rows(rows)
            return cls(
                flat.terrain, flat.doors, "canonical", flat.items, portals, floors, flat.coins
            )
        return cls.from_rows(*_rows_and_dialect(lines))


def is_room_text(text: str) -> bool:
    """Whether ASCII text marks doors (a digit 1-9) rather than a start and a goal (in the extended
    text form, in its rows: a floor's name may hold digits)."""
    from designer.core.floors import KEYWORDS

    lines = [line for line in text.splitlines() if line.strip().split(" ", 1)[0] not in KEYWORDS]
    return any(ch in line for line in lines for ch in DOOR_CHARS)


def _rows_and_dialect(lines: list[str]) -> tuple[list[str], Dialect]:
    """The dialect a room is drawn in: with no start or goal to tell them apart, the first of the
    canonical, seed and kata dialects in which every character but the doors is a tile."""
    for dialect in DIALECTS.values():
        rows = trim_lines(lines, dialect)
        if rows and all(
            dialect.tile_of(ch) or ch in DOOR_CHARS or ch in (ITEM_CHAR, COIN_CHAR)
            for row in rows
            for ch in row
        ):
            return rows, dialect
    rows = trim_lines(lines, CANONICAL)
    if not rows:
        raise LevelError("empty input: no level found")
    return rows, CANONICAL  # its error names the first character no dialect knows


def parse_route(text: str) -> Route:
    """'A:B' as a route of doors (1-9); LevelError (one line) for anything else.

    >>> parse_route("1:3")
    (1, 3)
    """
    a, sep, b = text.partition(":")
    # ASCII 1-9 only
    if not sep or len(a) != 1 or len(b) != 1 or a not in DOOR_CHARS or b not in DOOR_CHARS:
        raise LevelError(f"--route takes two doors A:B (1-9), such as 1:3, not {text!r}")
    return int(a), int(b)


def lost_words(a: int, b: int) -> str:
    """Why route a:b has no solution, in words (a vault's route: its items not all brought back).

    >>> lost_words(1, 3), lost_words(1, 1)
    ('door 3 cannot be reached from door 1', 'its items cannot all be taken and brought back to door 1')
    """
    if a == b:
        return f"its items cannot all be taken and brought back to door {a}"
    return f"door {b} cannot be reached from door {a}"
