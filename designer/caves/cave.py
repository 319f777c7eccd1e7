"""A cave: named rooms with doors, links between their doors, an entrance, an exit, and keys
that open locked links. Its text form and its JSON form (format ``ice-cave``) both read back to
the same value, and a cave prints in one canonical text (docs/spec.md, "Caves").

The text form: each room is a line ``room NAME [at R,C] [floor N]`` and its rows (a room's
canonical ASCII: ``#`` rock, ``.`` ice, ``_`` snow, a digit for each door, ``*`` for a key, ``$``
for a coin (``designer.caves.coins``) and ``?`` for a cell the designer fills); then one line per
link, per key, the entrance and the exit:

- ``door A:2 B:1`` and ``ladder A:2 B:1`` join room A's door 2 and room B's door 1 both ways;
- ``hole A:2 B:1`` leads one way, from A's door 2 down to B's door 1;
- any link may end in ``lock KEY``: shut (a wall) until that key is held;
- ``key KEY ROOM R,C`` names the key on the ``*`` at row R, column C of that room;
- ``entrance A:1`` and ``exit D:2``: where the player starts, and the door that ends the cave.

>>> text = "room a\\n#1#\\n#.2\\n###\\nroom b\\n#1#\\n2.#\\n###\\ndoor a:2 b:2\\nentrance a:1\\nexit b:1"
>>> cave = Cave.parse(text)
>>> [room.name for room in cave.rooms], str(cave.links[0]), cave.entrance
(['a', 'b'], 'door a:2 b:2', ('a', 1))
>>> str(cave) == text and Cave.from_json(cave.to_json()) == cave
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from designer.caves.parts import (
    KINDS,
    ROOM_NAME,
    ROW_CHARS,
    CaveRoom,
    Door,
    Key,
    Link,
    door_text,
    json_cell,
    json_list,
    json_object,
    json_rows,
    json_text,
    json_whole,
    parse_cell,
    parse_door,
    parse_link,
    room_head,
)
from designer.core.errors import LevelError
from designer.core.limits import MAX_COINS, MAX_DESIGN_SIDE, MAX_KEYS, MAX_ROOMS
from designer.core.room import Room
from designer.core.terrain import Cell

FORMAT = "ice-cave"
VERSION = 1


def door_roles(cave: Cave) -> dict:
    """What each linked door does, by door ((room, number)): (role, the door at the link's other
    end, its lock). The role is ``doorway``, ``ladder_up`` or ``ladder_down`` (to a floor of a
    smaller or a larger number), ``hole`` where a hole leaves, or ``landing`` where it lands."""
    floor = {room.name: room.floor for room in cave.rooms}
    found = {}
    for link in cave.links:
        for here, there in ((link.a, link.b), (link.b, link.a)):
            if link.kind == "ladder":
                role = "ladder_down" if floor[there[0]] > floor[here[0]] else "ladder_up"
            elif link.kind == "hole":
                role = "hole" if here == link.a else "landing"
            else:
                role = "doorway"
            found[here] = (role, there, link.lock)
    return found


def door_words(cave: Cave) -> dict:
    """What each door does and where it leads, by door: "ladder down to c1", "hole from a2",
    "doorway to c2, locked: gold", "entrance", "exit".

    >>> cave = Cave.parse("room a\\n#1#\\n#.2\\n###\\nroom b floor 2\\n#1#\\n2.#\\n###\\nhole a:2 b:2\\n"
    ...                   "entrance a:1\\nexit b:1")
    >>> sorted(door_words(cave).values())
    ['entrance', 'exit', 'hole down to b', 'hole from a']
    """
    floor = {room.name: room.floor for room in cave.rooms}
    said = {cave.entrance: "entrance", cave.exit: "exit"}
    for here, (role, there, lock) in door_roles(cave).items():
        if role == "landing":
            said[here] = f"hole from {there[0]}"
            continue
        step = floor[there[0]] - floor[here[0]]
        way = "down " if step > 0 else "up " if step < 0 else ""
        said[here] = f"{role.split('_')[0]} {way}to {there[0]}" + (
            f", locked: {lock}" if lock else ""
        )
    return said


@dataclass(frozen=True)
class Cave:
    """A cave (see the module docstring); checked whole when made (LevelError, one line)."""

    rooms: tuple[CaveRoom, ...]
    links: tuple[Link, ...]
    entrance: Door
    exit: Door
    keys: tuple[Key, ...] = ()
    by_name: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rooms", tuple(self.rooms))
        object.__setattr__(self, "links", tuple(self.links))
        object.__setattr__(self, "keys", tuple(self.keys))
        object.__setattr__(self, "by_name", {room.name: room for room in self.rooms})
        _check(self)

    @property
    def coins(self) -> tuple[tuple[str, Cell], ...]:
        """Every coin, as (room, cell), room by room (each room's in row order): one bit each in
        the cave's full clear (``designer.caves.coins``)."""
        return tuple((room.name, cell) for room in self.rooms for cell in room.coins)

    @property
    def free(self) -> bool:
        """Whether some room still has cells to fill."""
        return any(room.free for room in self.rooms)

    def room(self, name: str) -> CaveRoom:
        try:
            return self.by_name[name]
        except KeyError:
            raise LevelError(f"the cave has no room {name!r}") from None

    def door_cell(self, door: Door) -> Cell:
        return self.room(door[0]).doors[door[1]]

    def but(self, **changes) -> Cave:
        values = {
            "rooms": self.rooms,
            "links": self.links,
            "entrance": self.entrance,
            "exit": self.exit,
            "keys": self.keys,
            **changes,
        }
        return Cave(**values)

    def filled(self, rooms: dict[str, Room]) -> Cave:
        """The cave with the rooms named in ``rooms`` as designed."""
        return self.but(
            rooms=tuple(
                room.filled(rooms[room.name]) if room.name in rooms else room for room in self.rooms
            )
        )

    # --- text ------------------------------------------------------------------------------
    def lines(self) -> list[str]:
        lines = []
        for room in self.rooms:
            lines.append(room.head())
            lines.extend(room.rows)
        lines.extend(str(link) for link in self.links)
        lines.extend(str(key) for key in self.keys)
        lines += [f"entrance {door_text(self.entrance)}", f"exit {door_text(self.exit)}"]
        return lines

    def __str__(self) -> str:
        return "\n".join(self.lines())

    @classmethod
    def parse(cls, text: str) -> Cave:
        """A cave from its text form (LevelError, one line, naming the line for anything else)."""
        rooms: list[CaveRoom] = []
        links, keys, ends = [], [], {}
        head: tuple | None = None
        rows: list[str] = []

        def close() -> None:
            if head is not None:
                if not rows:
                    raise LevelError(f"room {head[0]} has no rows")
                rooms.append(CaveRoom(head[0], tuple(rows), head[1], head[2]))

        for number, raw in enumerate(text.replace("\r\n", "\n").split("\n"), 1):
            line = raw.strip()
            if not line:
                continue
            word, *rest = line.split()
            try:
                if word == "room":
                    close()
                    head, rows = room_head(rest), []
                elif word in KINDS:
                    links.append(parse_link(word, rest))
                elif word == "key":
                    if len(rest) != 3:
                        raise LevelError("a key line is: key NAME ROOM R,C")
                    keys.append(Key(rest[0], rest[1], parse_cell(rest[2], "a key's cell")))
                elif word in ("entrance", "exit"):
                    if len(rest) != 1 or word in ends:
                        raise LevelError(f"one {word} line, with one door ROOM:N")
                    ends[word] = parse_door(rest[0])
                elif set(line) <= ROW_CHARS and head is not None:
                    rows.append(line)
                else:
                    raise LevelError(f"not a line of a cave: {line[:40]!r}")
            except LevelError as exc:
                raise LevelError(f"line {number}: {exc}") from None
        close()
        for word in ("entrance", "exit"):
            if word not in ends:
                raise LevelError(f"the cave has no {word} line ({word} ROOM:N)")
        return cls(tuple(rooms), tuple(links), ends["entrance"], ends["exit"], tuple(keys))

    # --- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict:
        rooms = []
        for room in self.rooms:
            found: dict[str, Any] = {"name": room.name, "rows": list(room.rows)}
            if room.at is not None:
                found["at"] = list(room.at)
            if room.floor != 1:
                found["floor"] = room.floor
            rooms.append(found)
        links = [
            {
                "kind": link.kind,
                "from": door_text(link.a),
                "to": door_text(link.b),
                **({"lock": link.lock} if link.lock else {}),
            }
            for link in self.links
        ]
        found = {"format": FORMAT, "version": VERSION, "rooms": rooms, "links": links}
        if self.keys:
            found["keys"] = [
                {"name": k.name, "room": k.room, "cell": list(k.cell)} for k in self.keys
            ]
        found.update(entrance=door_text(self.entrance), exit=door_text(self.exit))
        return found

    @classmethod
    def from_json(cls, obj: object) -> Cave:
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise LevelError(f'JSON is not a cave: "format" must be {FORMAT!r}')
        if type(obj.get("version")) is not int or obj["version"] != VERSION:
            raise LevelError(
                f"unsupported ice-cave version {obj.get('version')!r}: this reader knows version 1"
            )
        rooms, links, keys = (
            json_list(obj, "rooms"),
            json_list(obj, "links"),
            json_list(obj, "keys", True),
        )
        try:
            made = [
                CaveRoom(
                    json_text(room, "name"),
                    tuple(json_rows(room)),
                    json_cell(room.get("at"), True),
                    json_whole(room.get("floor", 1)),
                )
                for room in map(json_object, rooms)
            ]
            joined = [
                Link(
                    json_text(link, "kind"),
                    parse_door(json_text(link, "from")),
                    parse_door(json_text(link, "to")),
                    link.get("lock"),
                )
                for link in map(json_object, links)
            ]
            held = [
                Key(
                    json_text(key, "name"),
                    json_text(key, "room"),
                    cast(Cell, json_cell(key.get("cell"), False)),
                )
                for key in map(json_object, keys)
            ]
            return cls(
                tuple(made),
                tuple(joined),
                parse_door(json_text(obj, "entrance")),
                parse_door(json_text(obj, "exit")),
                tuple(held),
            )
        except LevelError:
            raise
        except (TypeError, ValueError) as exc:
            raise LevelError(f"JSON cave: {exc}") from None


def _check(cave: Cave) -> None:
    """Every rule of a cave's shape (docs/spec.md, "Caves"), one LevelError line for the first broken."""
    if not cave.rooms:
        raise LevelError("a cave needs at least one room")
    if len(cave.rooms) > MAX_ROOMS:
        raise LevelError(f"{len(cave.rooms)} rooms: a cave holds at most {MAX_ROOMS}")
    if len(cave.by_name) != len(cave.rooms):
        twice = next(r.name for r in cave.rooms if sum(o.name == r.name for o in cave.rooms) > 1)
        raise LevelError(f"two rooms named {twice!r}")
    for room in cave.rooms:
        if not ROOM_NAME.fullmatch(room.name):
            raise LevelError(f"room name {room.name!r}: 1 to 32 letters, digits, '_' or '-'")
        if type(room.floor) is not int or not 1 <= room.floor <= 99:
            raise LevelError(f"room {room.name}: floor must be a number 1 to 99")
        if not room.rows or any(len(row) != len(room.rows[0]) for row in room.rows):
            raise LevelError(f"room {room.name}: its rows must be non-empty and equally long")
        if len(room.rows) > MAX_DESIGN_SIDE or len(room.rows[0]) > MAX_DESIGN_SIDE:
            raise LevelError(
                f"room {room.name}: {len(room.rows)}x{len(room.rows[0])} is over the largest room, "
                f"{MAX_DESIGN_SIDE}x{MAX_DESIGN_SIDE}"
            )
        bad = next((ch for row in room.rows for ch in row if ch not in ROW_CHARS), None)
        if bad is not None:
            raise LevelError(
                f"room {room.name}: {bad!r} is not a cave room's character (# . _ 1-9 * $ ?)"
            )
        try:
            _ = room.room  # reading the room checks it
        except LevelError as exc:
            raise LevelError(f"room {room.name}: {exc}") from None
    if len(cave.keys) > MAX_KEYS:
        raise LevelError(f"{len(cave.keys)} keys: a cave holds at most {MAX_KEYS}")
    if len(cave.coins) > MAX_COINS:  # its full clear takes one bit a coin, as a level's
        raise LevelError(
            f"{len(cave.coins)} coins: a cave holds at most {MAX_COINS}, in all its rooms"
        )
    names = [key.name for key in cave.keys]
    for key in cave.keys:
        if not ROOM_NAME.fullmatch(key.name) or names.count(key.name) > 1:
            raise LevelError(
                f"key {key.name!r}: a key needs a name of its own (letters, digits, _ or -)"
            )
        if key.cell not in cave.room(key.room).stars:
            raise LevelError(
                f"key {key.name}: room {key.room} has no * at row {key.cell[0]}, col {key.cell[1]}"
            )
    placed = {(key.room, key.cell) for key in cave.keys}
    for room in cave.rooms:
        for cell in room.stars:
            if (room.name, cell) not in placed:
                raise LevelError(
                    f"room {room.name}: the * at row {cell[0]}, col {cell[1]} is no key (a cave's "
                    f"items are its keys: name it with key NAME {room.name} {cell[0]},{cell[1]})"
                )
    used: dict[Door, str] = {}
    ends = (("entrance", cave.entrance), ("exit", cave.exit))
    for what, door in [(str(link), d) for link in cave.links for d in (link.a, link.b)] + list(
        ends
    ):
        if door[1] not in cave.room(door[0]).doors:
            raise LevelError(f"{what}: room {door[0]} has no door {door[1]}")
        if door in used:
            raise LevelError(f"door {door_text(door)} is used twice ({used[door]}; {what})")
        used[door] = what
    for link in cave.links:
        if link.kind not in KINDS:
            raise LevelError(f"a link is a door, a ladder or a hole, not {link.kind!r}")
        if link.a[0] == link.b[0]:
            raise LevelError(f"{link}: a link joins two rooms")
        if link.lock is not None and link.lock not in names:
            raise LevelError(f"{link}: no key is named {link.lock!r}")
    for room in cave.rooms:
        for number in room.doors:
            if (room.name, number) not in used:
                raise LevelError(
                    f"door {room.name}:{number} leads nowhere: link it, or make it the entrance or exit"
                )
