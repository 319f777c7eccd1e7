"""A cave as one graph of states: solve it, analyse it, verify it.

Inside, the cave is one level (``designer.core.level.Level``): its rooms are floors laid one
under the other on one sheet, each link is a portal (a doorway or a ladder a pair, a hole one
way), the entrance is the start and the exit the goal, so the one sliding rule
(``designer.core.rules``) moves the player from room to room. Keys add to each state the set of
keys held (docs/spec.md, "Caves"): a link whose key is not held is rock, a key is taken by
sliding over it or stopping on it, and a key taken earlier in a slide opens a lock later in the
same slide. The exit ends the cave whatever keys are held, so every move into it lands on one
goal state, (exit, none held).

>>> from designer.caves.cave import Cave
>>> cave = Cave.parse("room a\\n#1#\\n#.2\\n###\\nroom b\\n#1#\\n2.#\\n###\\ndoor a:2 b:2\\nentrance a:1\\nexit b:1")
>>> way = solve(cave)
>>> way.moves, [(visit.room, visit.stops) for visit in way.visits]
('drru', [('a', 2), ('b', 2)])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from designer.caves.cave import Cave
from designer.caves.parts import Door
from designer.core.errors import LevelError
from designer.core.items import States
from designer.core.level import Level
from designer.core.rules import NO_MOVE, slide_takes, traced_table
from designer.core.terrain import ROCK, Cell


@dataclass(frozen=True, eq=False)
class Sheet:
    """A filled cave laid out as one level: ``level`` (rooms as floors, links as portals), where
    each room's rows begin (``tops``), and the flat cell of each key and each door."""

    cave: Cave
    level: Level
    tops: dict

    def cell(self, room: str, cell: Cell) -> int:
        return (self.tops[room] + cell[0]) * self.level.width + cell[1]

    def door(self, door: Door) -> int:
        return self.cell(door[0], self.cave.door_cell(door))

    @cached_property
    def keys(self) -> tuple[int, ...]:
        return tuple(self.cell(key.room, key.cell) for key in self.cave.keys)

    def room_of(self, flat: int) -> str:
        return self.level.floor_of(self.level.cell(flat)).name

    def local(self, flat: int) -> Cell:
        r, c = self.level.cell(flat)
        return r - self.tops[self.room_of(flat)], c

    @cached_property
    def doors(self) -> dict[int, Door]:
        return {
            self.cell(room.name, cell): (room.name, number)
            for room in self.cave.rooms
            for number, cell in room.doors.items()
        }


def sheet(cave: Cave) -> Sheet:
    """The cave as one level (see the module docstring); LevelError for a cave with free cells."""
    from designer.core.floors import Floor

    free = next((room.name for room in cave.rooms if room.free), None)
    if free is not None:
        raise LevelError(f"room {free} has free cells (?): fill the cave first (designer cave)")
    width = max(room.shape[1] for room in cave.rooms)
    terrain, floors, tops, top = [], [], {}, 0
    for room in cave.rooms:
        grid = room.room.terrain
        padded = np.full((grid.shape[0], width), ROCK, np.uint8)
        padded[:, : grid.shape[1]] = grid
        terrain.append(padded)
        floors.append(Floor(room.name, top, grid.shape[0], grid.shape[1]))
        tops[room.name] = top
        top += grid.shape[0]

    def at(door: Door) -> Cell:
        r, c = cave.door_cell(door)
        return tops[door[0]] + r, c

    portals = []
    for link in cave.links:
        portals.append((at(link.a), at(link.b)))
        if not link.one_way:
            portals.append((at(link.b), at(link.a)))
    level = Level(
        np.vstack(terrain),
        at(cave.entrance),
        at(cave.exit),
        portals=tuple(portals),
        floors=tuple(floors),
    )
    return Sheet(cave, level, tops)


def _locked(level: Level, cells: set[tuple[int, int]]) -> Level:
    """``level`` with the door cells of shut links turned to rock and their portals gone."""
    if not cells:
        return level
    terrain = level.terrain.copy()
    for cell in cells:
        terrain[cell] = ROCK
    portals = tuple(p for p in level.portals if p[0] not in cells and p[1] not in cells)
    return level.replace(terrain=terrain, portals=portals)


def states(cave_sheet: Sheet, capture: bool = True, without: int | None = None) -> States:
    """The cave's states (cell, keys held: bit k for the k-th key) and their moves, in the shape
    of ``designer.core.items.States`` (its ``items`` are the keys), so every search over states
    reads it. ``capture``: the exit ends the cave (False: it is plain ice, for the way back).
    ``without``: the index of a key left out of the cave (its locks then stay shut)."""
    level, cave = cave_sheet.level, cave_sheet.cave
    cells, width = level.height * level.width, level.width
    count = len(cave.keys)
    full = 1 << count
    exit_cell = level.index(level.goal)
    names = [key.name for key in cave.keys]
    tables = []
    for held in range(full):
        shut: set[Cell] = set()  # the door cells of the links whose key is not held: rock
        for link in cave.links:
            if link.lock is not None and not held >> names.index(link.lock) & 1:
                shut.update(
                    level.cell(cave_sheet.door(door))
                    for door in (link.a, link.b)[: 1 if link.one_way else 2]
                )
        tables.append(traced_table(_locked(level, shut), exit_cell if capture else -1))
    dests = np.stack([t[0] for t in tables])  # (held, 4, cells)
    lengths = np.stack([t[1] for t in tables])
    rock = level.terrain.reshape(-1) == ROCK
    keys = [(k, flat) for k, flat in enumerate(cave_sheet.keys) if k != without]
    dest = np.empty((4, cells * full), np.int32)
    length = np.empty((4, cells * full), np.int32)
    every = np.arange(cells)
    for d in range(4):
        for held in range(full):
            now = np.full(cells, held, np.int64)
            for _ in range(count + 1):  # a key taken can open a lock further along the same slide
                # the keys on each slide's line (as a level's coins: designer.core.rules)
                now = held | slide_takes(rock, width, d, lengths[now, d, every], keys)
            ends = dests[now, d, every]
            moving = ends != NO_MOVE
            target = (
                np.where(ends == exit_cell, exit_cell, now * cells + ends)
                if capture
                else now * cells + ends
            )
            dest[d, held * cells : (held + 1) * cells] = np.where(moving, target, NO_MOVE)
            length[d, held * cells : (held + 1) * cells] = np.where(
                moving, lengths[now, d, every], 0
            )
    items = tuple(level.cell(flat) for flat in cave_sheet.keys)
    return States(dest, length, level.index(level.start), exit_cell, cells, width, items)


# --- the way through ------------------------------------------------------------------------


@dataclass(frozen=True)
class Visit:
    """One stay in a room along the way: entered at ``door`` (the entrance's door for the first),
    the ``moves`` made there (the last takes the player through a door), and the keys taken."""

    room: str
    door: int
    moves: str
    keys: tuple[str, ...]

    @property
    def stops(self) -> int:
        return len(self.moves)

    def to_dict(self) -> dict:
        return {
            "room": self.room,
            "door": self.door,
            "moves": self.moves,
            "stops": self.stops,
            "keys": list(self.keys),
        }


@dataclass(frozen=True)
class Way:
    """The fewest-moves way from the entrance to the exit (ties: least distance, then u, d, l, r)."""

    moves: str
    distance: int
    visits: tuple[Visit, ...]
    keys: dict  # key name: the move that takes it (1 for the first)
    path: tuple = ()  # the resting places, (room, (row, col)), from the entrance to the exit

    @property
    def stops(self) -> int:
        return len(self.moves)

    def to_dict(self) -> dict:
        return {
            "moves": self.moves,
            "stops": self.stops,
            "distance": self.distance,
            "rooms": [visit.to_dict() for visit in self.visits],
            "keys_taken_at": self.keys,
        }


def solve(
    cave: Cave, by: str = "moves", table: States | None = None, laid: Sheet | None = None
) -> Way | None:
    """The fewest-moves way through the cave (``by="distance"``: the shortest slide in all), room
    by room, or None when the exit cannot be reached."""
    from designer.analysis.solver import costs_to_goal, walk

    laid = laid or sheet(cave)
    table = table or states(laid)
    found = walk(table, costs_to_goal(table, by))
    if found is None:
        return None
    path = [laid.level.index(cell) for cell in found.path]
    visits, room, door, moves, taken = [], laid.room_of(path[0]), cave.entrance[1], [], []
    names = [key.name for key in cave.keys]
    keys = {names[k]: at for k, at in enumerate(found.taken) if at}
    for step, (letter, after) in enumerate(zip(found.moves, path[1:]), 1):
        moves.append(letter)
        taken += [name for name, at in keys.items() if at == step]
        there = laid.room_of(after)
        if there != room or step == len(found.moves):
            visits.append(Visit(room, door, "".join(moves), tuple(taken)))
            room, door, moves, taken = there, laid.doors.get(after, (there, 0))[1], [], []
    rests = tuple((laid.room_of(flat), laid.local(flat)) for flat in path)
    return Way(found.moves, found.distance, tuple(visits), keys, rests)


# --- the analysis ---------------------------------------------------------------------------


def _backward(dest: np.ndarray, order: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Which states of ``order`` reach a state of ``targets`` by the moves of ``dest``."""
    count = dest.shape[1]
    inside = np.zeros(count, bool)
    inside[order] = True
    froms = np.concatenate([order[dest[d, order] >= 0] for d in range(4)])
    tos = np.concatenate([dest[d, order][dest[d, order] >= 0] for d in range(4)])
    by_end = np.argsort(tos, kind="stable")
    froms, tos = froms[by_end], tos[by_end]
    first = np.searchsorted(tos, np.arange(count + 1))
    seen = np.zeros(count, bool)
    frontier = np.unique(targets)
    seen[frontier] = True
    while frontier.size:
        spans = [froms[first[v] : first[v + 1]] for v in frontier.tolist()]
        found = np.unique(np.concatenate(spans)) if spans else np.empty(0, np.int64)
        found = found[inside[found] & ~seen[found]]
        seen[found] = True
        frontier = found
    return seen[order]
