"""The parts a cave is made of: its rooms (``CaveRoom``), the links between their doors (``Link``: a
doorway, a ladder or a hole) and its keys (``Key``), a door named in text (``parse_door``, ``door_text``),
and the readers of each part's text and JSON, which ``designer.caves.cave.Cave`` reads a cave with."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from designer.core.errors import LevelError
from designer.core.room import Room
from designer.core.terrain import COIN_CHAR, DOOR_CHARS, ITEM_CHAR, Cell

#: Link kinds: the two-way ones, then the one-way hole.
KINDS = ("door", "ladder", "hole")


FREE = "?"


ROOM_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")


ROW_CHARS = set("#._" + DOOR_CHARS + ITEM_CHAR + COIN_CHAR + FREE)


Door = tuple[str, int]  # (room name, door number)


def door_text(door: Door) -> str:
    return f"{door[0]}:{door[1]}"


def parse_door(text: str) -> Door:
    """'ROOM:N' as a door; LevelError (one line) for anything else."""
    name, sep, number = text.rpartition(":")
    if not sep or not ROOM_NAME.fullmatch(name) or len(number) != 1 or number not in DOOR_CHARS:
        raise LevelError(
            f"a door is ROOM:N (a room's name, a door 1-9), such as hall:2, not {text!r}"
        )
    return name, int(number)


def parse_cell(text: str, what: str) -> Cell:
    r, sep, c = text.partition(",")
    if (
        not sep
        or not (r.isascii() and r.isdigit() and c.isascii() and c.isdigit())
        or len(r) > 6
        or len(c) > 6
    ):
        raise LevelError(f"{what} takes R,C (two whole numbers), not {text!r}")
    return int(r), int(c)


@dataclass(frozen=True)
class CaveRoom:
    """One room of a cave: its ``name``, its ``rows`` (``?`` marks a free cell: a room still to be
    designed), where it lies on the floor plan (``at``: row and column in cells, or None) and on
    which ``floor`` (1 at the top)."""

    name: str
    rows: tuple[str, ...]
    at: Cell | None = None
    floor: int = 1

    @property
    def free(self) -> bool:
        """Whether the room still has cells for the designer to fill."""
        return any(FREE in row for row in self.rows)

    @cached_property
    def shape(self) -> tuple[int, int]:
        return len(self.rows), len(self.rows[0])

    @cached_property
    def doors(self) -> dict[int, Cell]:
        return {
            int(ch): (r, c)
            for r, row in enumerate(self.rows)
            for c, ch in enumerate(row)
            if ch in DOOR_CHARS
        }

    @cached_property
    def stars(self) -> tuple[Cell, ...]:
        return tuple(
            (r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == ITEM_CHAR
        )

    @cached_property
    def coins(self) -> tuple[Cell, ...]:
        return tuple(
            (r, c) for r, row in enumerate(self.rows) for c, ch in enumerate(row) if ch == COIN_CHAR
        )

    @cached_property
    def room(self) -> Room:
        """The room itself (its free cells read as ice, for a room still to design), its keys
        as items."""
        return Room.from_rows([row.replace(FREE, ".") for row in self.rows])

    @cached_property
    def plain(self) -> Room:
        """The room as its routes are read in a cave: its keys are ice (a key opens locks, and
        never closes the room's doors as an item does). A vault's keys stay items: its one route
        runs from its door to them and back."""
        room = self.room
        return Room(room.terrain, room.doors) if room.items and not room.vault else room

    def filled(self, room: Room) -> CaveRoom:
        """This room with its cells as ``room`` has them (a designed room)."""
        rows = [list(row) for row in room.rows()]
        for r, c in self.stars:  # the keys where the cave has them
            rows[r][c] = ITEM_CHAR
        for r, c in self.coins:  # and its coins
            rows[r][c] = COIN_CHAR
        return CaveRoom(self.name, tuple("".join(row) for row in rows), self.at, self.floor)

    def head(self) -> str:
        at = f" at {self.at[0]},{self.at[1]}" if self.at is not None else ""
        return f"room {self.name}{at}" + (f" floor {self.floor}" if self.floor != 1 else "")


@dataclass(frozen=True)
class Link:
    """A link from door ``a`` to door ``b``: a doorway or a ladder (both ways) or a hole (one way,
    a to b), shut until key ``lock`` is held when it names one."""

    kind: str
    a: Door
    b: Door
    lock: str | None = None

    @property
    def one_way(self) -> bool:
        return self.kind == "hole"

    def __str__(self) -> str:
        return f"{self.kind} {door_text(self.a)} {door_text(self.b)}" + (
            f" lock {self.lock}" if self.lock else ""
        )


@dataclass(frozen=True)
class Key:
    """A key: its ``name``, and the ``room`` and ``cell`` (the room's own row and column) of the
    ``*`` it lies on."""

    name: str
    room: str
    cell: Cell

    def __str__(self) -> str:
        return f"key {self.name} {self.room} {self.cell[0]},{self.cell[1]}"


def room_head(words: list[str]) -> tuple[str, Cell | None, int]:
    if not words or not ROOM_NAME.fullmatch(words[0]):
        raise LevelError(
            "a room line is: room NAME [at R,C] [floor N] (a name of 1 to 32 letters, digits, _ or -)"
        )
    at, floor, rest = None, 1, words[1:]
    while rest:
        if len(rest) < 2 or rest[0] not in ("at", "floor"):
            raise LevelError(
                f"room {words[0]}: after the name come 'at R,C' and 'floor N', not {' '.join(rest)!r}"
            )
        if rest[0] == "at":
            at = parse_cell(rest[1], "at")
        else:
            if not (rest[1].isascii() and rest[1].isdigit() and 1 <= int(rest[1]) <= 99):
                raise LevelError(f"floor takes a number 1 to 99, not {rest[1]!r}")
            floor = int(rest[1])
        rest = rest[2:]
    return words[0], at, floor


def parse_link(kind: str, words: list[str]) -> Link:
    if len(words) not in (2, 4) or (len(words) == 4 and words[2] != "lock"):
        raise LevelError(f"a link line is: {kind} ROOM:N ROOM:N [lock KEY]")
    return Link(
        kind, parse_door(words[0]), parse_door(words[1]), words[3] if len(words) == 4 else None
    )


def json_list(obj: dict, key: str, optional: bool = False) -> list:
    value = obj.get(key, [] if optional else None)
    if not isinstance(value, list):
        raise LevelError(f'JSON cave: "{key}" must be a list')
    return value


def json_object(value) -> dict:
    if not isinstance(value, dict):
        raise LevelError("JSON cave: every room, link and key is an object")
    return value


def json_text(obj: dict, key: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise LevelError(f'JSON cave: "{key}" must be a string')
    return value


def json_rows(room: dict) -> list[str]:
    rows = room.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
        raise LevelError('JSON cave: a room\'s "rows" must be a list of strings')
    return rows


def json_whole(value) -> int:
    if type(value) is not int:
        raise LevelError("JSON cave: a room's floor must be a whole number")
    return value


def json_cell(value, optional: bool) -> Cell | None:
    if value is None and optional:
        return None
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(type(v) is int and 0 <= v < 10**6 for v in value)
    ):
        raise LevelError("JSON cave: a cell is [row, col], two whole numbers")
    return value[0], value[1]
