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
from designer.caves.parts import Door, Link
from designer.core import kernels
from designer.core.errors import LevelError
from designer.core.items import States
from designer.core.level import Level
from designer.core.rules import DELTAS, NO_MOVE, traced_table
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
    rows, cols = np.divmod(np.arange(cells), width)
    keys = [(k, divmod(flat, width)) for k, flat in enumerate(cave_sheet.keys) if k != without]
    dest = np.empty((4, cells * full), np.int32)
    length = np.empty((4, cells * full), np.int32)
    every = np.arange(cells)
    for d, (dr, dc) in enumerate(DELTAS):
        for held in range(full):
            now = np.full(cells, held, np.int64)
            for _ in range(count + 1):  # a key taken can open a lock further along the same slide
                reach = lengths[now, d, every]
                picked = np.zeros(cells, np.int64)
                for k, (kr, kc) in keys:
                    if dc == 0:
                        on, offset = cols == kc, (kr - rows) * dr
                    else:
                        on, offset = rows == kr, (kc - cols) * dc
                    picked |= np.where(on & (offset >= 1) & (offset <= reach), 1 << k, 0)
                now = held | picked
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


@dataclass(frozen=True)
class KeyWorth:
    """A key: the move of the way that takes it (0: not taken), and the cave's min stops
    without it (None: the exit cannot be reached without it)."""

    name: str
    taken_at: int
    without: int | None
    stops: int | None

    @property
    def needed(self) -> bool:
        return self.without is None

    @property
    def matters(self) -> bool:
        """Without it the exit cannot be reached, or the way through is longer."""
        return self.without is None or (self.stops is not None and self.without > self.stops)

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "taken_at": self.taken_at,
            "min_stops_without": self.without,
            "needed": self.needed,
            "matters": self.matters,
        }


@dataclass(frozen=True)
class LinkUse:
    """A link: whether the player ever passes it, and whether a move through it cannot be undone
    (it leaves its strongly connected component of states: one way in play)."""

    link: Link
    used: bool
    one_way: bool

    def to_dict(self) -> dict:
        return {
            "link": str(self.link),
            "kind": self.link.kind,
            "lock": self.link.lock,
            "used": self.used,
            "one_way_in_play": self.one_way,
        }


@dataclass(frozen=True)
class CaveAnalysis:
    """What ``analyze`` finds (docs/spec.md, "Caves")."""

    cave: Cave
    way: Way | None
    strong: bool
    traps: int  # reachable states from which the exit cannot be reached
    reversible: bool  # from every state reached (the exit's too) the entrance can be reached again
    unreached: tuple[str, ...]  # rooms the player can never enter
    keys: tuple[KeyWorth, ...]
    links: tuple[LinkUse, ...]
    rooms: tuple  # each room's own routes (designer.analysis.routes.RoomAnalysis), its keys as ice

    @property
    def min_stops(self) -> int | None:
        return None if self.way is None else self.way.stops

    @property
    def solvability(self) -> str:
        return "unsolvable" if self.way is None else "strong" if self.strong else "weak"

    def to_dict(self) -> dict:
        return {
            "solvability": self.solvability,
            "min_stops": self.min_stops,
            "reversible": self.reversible,
            "traps": self.traps,
            "unreached_rooms": list(self.unreached),
            "keys": [key.to_dict() for key in self.keys],
            "links": [use.to_dict() for use in self.links],
            "way": None if self.way is None else self.way.to_dict(),
            "rooms": {
                room.name: analysis.to_dict() for room, analysis in zip(self.cave.rooms, self.rooms)
            },
        }


def analyze(cave: Cave, rooms: bool = True) -> CaveAnalysis:
    """The cave's analysis: its way through, strong and reversible on the whole graph, the rooms
    never reached, each key's worth, each link's use, and (``rooms``) every room's own routes."""
    import networkx as nx

    from designer.analysis.routes import analyze_routes

    laid = sheet(cave)
    table = states(laid)
    way = solve(cave, table=table, laid=laid)
    _, order = kernels.reach(table.dest, table.start, table.goal)
    order = order.astype(np.int64)
    finish = _backward(table.dest, order, np.array([table.goal]))
    free = states(laid, capture=False)  # the exit as plain ice: the way back starts there too
    _, wander = kernels.reach(free.dest, free.start, -1)
    wander = wander.astype(np.int64)
    entrance = free.start + free.cells * np.arange(1 << len(cave.keys))
    back = _backward(free.dest, wander, entrance)
    reached = {laid.room_of(state % table.cells) for state in order.tolist()}
    # the exit ends the cave: no move leaves it, in any figure (a slide out of it is no play)
    playing = order[order != table.goal]
    graph = nx.DiGraph()
    graph.add_nodes_from(order.tolist())
    for d in range(4):
        moving = table.dest[d, playing] >= 0
        graph.add_edges_from(zip(playing[moving].tolist(), table.dest[d, playing][moving].tolist()))
    component = {
        state: k for k, part in enumerate(nx.strongly_connected_components(graph)) for state in part
    }
    # a move through a link is one that ends in another room: on the door at the link's far end
    room_of = np.repeat(np.arange(len(cave.rooms)), [room.shape[0] for room in cave.rooms])[
        np.arange(table.cells) // table.width
    ]
    lands = {}
    for k, link in enumerate(cave.links):
        lands[laid.door(link.b)] = k
        if not link.one_way:
            lands[laid.door(link.a)] = k
    used, one_way = [False] * len(cave.links), [False] * len(cave.links)
    for d in range(4):
        to = table.dest[d, playing]
        src, dst = playing[to >= 0], to[to >= 0].astype(np.int64)
        jump = room_of[src % table.cells] != room_of[dst % table.cells]
        for state, after in zip(src[jump].tolist(), dst[jump].tolist()):
            k = lands[after % table.cells]
            used[k] = True  # a move that ends the cave on the exit is not one way: the cave is over
            one_way[k] = one_way[k] or (
                after != table.goal and component[state] != component[after]
            )
    uses = [LinkUse(link, used[k], one_way[k]) for k, link in enumerate(cave.links)]
    worth = []
    for k, key in enumerate(cave.keys):
        stops = kernels.reach(*(lambda t: (t.dest, t.start, t.goal))(states(laid, without=k)))[0]
        without = int(stops[table.goal])
        worth.append(
            KeyWorth(
                key.name,
                way.keys.get(key.name, 0) if way else 0,
                without if without >= 0 else None,
                way.stops if way else None,
            )
        )
    return CaveAnalysis(
        cave,
        way,
        bool(finish.all()),
        int((~finish).sum()),
        bool(back.all()),
        tuple(room.name for room in cave.rooms if room.name not in reached),
        tuple(worth),
        tuple(uses),
        tuple(analyze_routes(room.plain) for room in cave.rooms) if rooms else (),
    )


def failure(
    cave: Cave, min_stops: int = 1, max_stops: int | None = None, report: CaveAnalysis | None = None
) -> str | None:
    """Why a filled cave is not one the designer hands back, in a few words; None when it is:
    solvable within the band, strong on the whole graph, every key mattering, and every room
    strong and reversible on each of its routes (each route analysed as the classic level it is,
    ``designer.analysis.routes``; a key is ice to its room's routes)."""
    report = report or analyze(cave)
    if report.way is None:
        return "the exit cannot be reached from the entrance"
    if not report.strong:
        return f"the cave is weak: {report.traps} states cannot reach the exit"
    assert report.min_stops is not None  # the way is found
    if report.min_stops < min_stops:
        return f"the cave's min stops {report.min_stops} is below {min_stops}"
    if max_stops is not None and report.min_stops > max_stops:
        return f"the cave's min stops {report.min_stops} is above {max_stops}"
    idle = next((key.name for key in report.keys if not key.matters), None)
    if idle is not None:
        return f"key {idle} does not matter: the way through is as short without it"
    for room, routes in zip(cave.rooms, report.rooms):
        failing = routes.failing()
        if failing:
            return f"room {room.name}: route {failing[0][0]} is {failing[0][1]}"
    return None


def played(cave: Cave, player=None):
    """What the model's player (``designer.analysis.player``; default: the fitted one) costs on the
    whole cave: its chain over the cave's states (rooms, keys held), solved exactly."""
    from designer.analysis.player import DEFAULT, chain, solve_chain

    laid = sheet(cave)
    way = solve(cave, laid=laid)
    if way is None:
        raise LevelError("the cave cannot be crossed: the player model needs a way to the exit")
    return solve_chain(chain(states(laid), player or DEFAULT, height=laid.level.height), way.stops)
