"""A cave being drawn from nothing (``designer.caves.grammar``): its rooms, each with its own size,
frame and free inside (corners cut off when asked), their doors placed along the walls two cells
apart, the links between them, the keys, and the snow and coins drawn in a room's inside.

>>> import random
>>> drawing = Drawing(random.Random(0))
>>> drawing.room("hall", 1, (0, 0), (9, 9), cut=("top left",))
>>> drawing.rooms["hall"].grid[1][:4], drawing.rooms["hall"].walls["top"]
(['#', '#', '#', '?'], [3, 4, 5, 6, 7])
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from designer.caves.cave import Cave
from designer.caves.parts import CaveRoom, Key, Link
from designer.core.errors import RequestError

#: The corners a room may have cut off, and the rows and columns of its inside each takes (from
#: the room's top left, or its bottom or right when negative): a block of 2x2 cells.
CORNERS = {
    "top left": ((1, 2), (1, 2)),
    "top right": ((1, 2), (-3, -2)),
    "bottom left": ((-3, -2), (1, 2)),
    "bottom right": ((-3, -2), (-3, -2)),
}


@dataclass
class _Room:
    name: str
    floor: int
    at: tuple[int, int]
    grid: list[list[str]]
    walls: dict = field(default_factory=dict)  # wall ("top", ...) -> free positions along it
    count: int = 0

    @property
    def size(self) -> tuple[int, int]:
        return len(self.grid), len(self.grid[0])


class Drawing:
    """The rooms being drawn, their doors, links and keys; every choice from ``rng``."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.rooms: dict[str, _Room] = {}
        self.links: list[Link] = []
        self.keys: list[Key] = []

    def room(
        self,
        name: str,
        floor: int,
        at: tuple[int, int],
        size: tuple[int, int],
        cut: tuple[str, ...] = (),
    ) -> None:
        """Room ``name`` of ``size`` (frame included), its inside free but the ``cut`` corners
        (``CORNERS``), whose walls then take no doors."""
        h, w = size
        grid = [["#"] * w if r in (0, h - 1) else ["#"] + ["?"] * (w - 2) + ["#"] for r in range(h)]
        walls = {
            "top": list(range(1, w - 1)),
            "bottom": list(range(1, w - 1)),
            "left": list(range(1, h - 1)),
            "right": list(range(1, h - 1)),
        }
        for corner in cut:
            rows = tuple(k % h for k in CORNERS[corner][0])
            cols = tuple(k % w for k in CORNERS[corner][1])
            for r in rows:
                for c in cols:
                    grid[r][c] = "#"
            vertical, horizontal = corner.split()
            walls[vertical] = [k for k in walls[vertical] if k not in cols]
            walls[horizontal] = [k for k in walls[horizontal] if k not in rows]
        self.rooms[name] = _Room(name, floor, at, grid, walls)

    def _cell(self, name: str, wall: str, k: int) -> tuple[int, int]:
        h, w = self.rooms[name].size
        return {"top": (0, k), "bottom": (h - 1, k), "left": (k, 0), "right": (k, w - 1)}[wall]

    def _sides(self, name: str) -> str:
        h, w = self.rooms[name].size
        return f"{h}x{w}"

    def door(self, name: str, wall: str, k: int | None = None) -> tuple[str, int]:
        """A door of room ``name`` on ``wall``, at position ``k`` along it (None: a free one at
        random), two cells at least from the wall's other doors."""
        room = self.rooms[name]
        free = room.walls[wall]
        if k is None:
            k = self.rng.choice(free)
        free[:] = [j for j in free if abs(j - k) > 1]
        room.count += 1
        r, c = self._cell(name, wall, k)
        room.grid[r][c] = str(room.count)
        return name, room.count

    def open_walls(self, name: str, shut: tuple[str, ...] = ()) -> list[str]:
        return [wall for wall, free in self.rooms[name].walls.items() if free and wall not in shut]

    def any_door(self, name: str, shut: tuple[str, ...] = ()) -> tuple[str, int]:
        """A door on any wall of the room with room to spare, but those in ``shut`` (the walls
        that touch a neighbour) while another has room."""
        walls = self.open_walls(name, shut) or self.open_walls(name)
        if not walls:
            raise RequestError(
                f"rooms of {self._sides(name)} leave no wall for room {name}'s doors: "
                f"give larger rooms ({{size}})"
            )
        return self.door(name, self.rng.choice(walls))

    def side_by_side(self, left: str, right: str, lock: str | None = None) -> None:
        """A doorway between two rooms side by side, in their shared wall."""
        r = self._shared(left, "right", right, "left")
        self.links.append(
            Link("door", self.door(left, "right", r), self.door(right, "left", r), lock)
        )

    def one_over_other(self, upper: str, lower: str, count: int, lock: str | None = None) -> None:
        """``count`` doorways between a room and the room below it, in their shared wall."""
        for _ in range(count):
            c = self._shared(upper, "bottom", lower, "top")
            self.links.append(
                Link("door", self.door(upper, "bottom", c), self.door(lower, "top", c), lock)
            )

    def _shared(self, one: str, its: str, other: str, theirs: str) -> int:
        shared = sorted(set(self.rooms[one].walls[its]) & set(self.rooms[other].walls[theirs]))
        if not shared:
            raise RequestError(
                f"rooms of {self._sides(one)} leave no room in the wall between {one} and {other} "
                f"for its doorways: give larger rooms ({{size}})"
            )
        return self.rng.choice(shared)

    def inside(self, room: str, clear: bool = False) -> tuple[int, int]:
        """A free cell of ``room`` two cells at least from its walls (beside a door, a key or
        snow may end the way in); ``clear``, in no door's row or column either (a key in line
        with a door, two cells in, left vaults that no search filled in its budget: `cave
        --rooms 8 --keys 3 --min-stops 40`, seeds 0-5, gave 5 caves of 6 before, 6 after)."""
        grid = self.rooms[room].grid
        h, w = len(grid), len(grid[0])
        doors = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch.isdigit()]

        def fits(r: int, c: int) -> bool:
            return grid[r][c] == "?" and not (clear and any(r == dr or c == dc for dr, dc in doors))

        if not any(fits(r, c) for r in range(2, h - 2) for c in range(2, w - 2)):
            raise RequestError(
                f"room {room} of {h}x{w} has no free cell left for its keys, snow and coins: "
                "give larger rooms ({size})"
            )
        while True:
            r, c = self.rng.randint(2, h - 3), self.rng.randint(2, w - 3)
            if fits(r, c):
                return r, c

    def key(self, name: str, room: str) -> None:
        """Key ``name`` in ``room``, on a cell ``inside`` it and out of its doors' lines."""
        r, c = self.inside(room, clear=True)
        self.rooms[room].grid[r][c] = "*"
        self.keys.append(Key(name, room, (r, c)))

    def mark(self, room: str, char: str) -> None:
        """A cell ``inside`` ``room`` drawn as ``char`` (``_`` snow, ``$`` a coin)."""
        r, c = self.inside(room)
        self.rooms[room].grid[r][c] = char

    def cave(self, entrance: tuple[str, int], exit_: tuple[str, int]) -> Cave:
        rooms = tuple(
            CaveRoom(room.name, tuple("".join(row) for row in room.grid), room.at, room.floor)
            for room in self.rooms.values()
        )
        return Cave(
            rooms,
            tuple(sorted(self.links, key=lambda link: (link.a, link.b))),
            entrance,
            exit_,
            tuple(self.keys),
        )
