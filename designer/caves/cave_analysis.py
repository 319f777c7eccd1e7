"""A cave's analysis over its graph of states: whether it is strong, each key's worth (needed, or
how much longer the way is without it: ``KeyWorth``), each link's use (``LinkUse``), the rooms
on every route (``CaveAnalysis``, ``analyze``), why a filled cave fails (``failure``), and what
the model's player costs on it (``played``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from designer.caves.cave import Cave
from designer.caves.graph import Way, _backward, sheet, solve, states
from designer.caves.parts import Link
from designer.core import kernels
from designer.core.errors import LevelError


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
    whole cave: its chain over the cave's states (rooms, keys held), solved exactly (a player
    with memory: played out)."""
    from designer.analysis.player import DEFAULT, figures_of

    laid = sheet(cave)
    way = solve(cave, laid=laid)
    if way is None:
        raise LevelError("the cave cannot be crossed: the player model needs a way to the exit")
    return figures_of(states(laid), player or DEFAULT, way.stops, height=laid.level.height)


def room_cells(cave: Cave):
    """What names a cell of the cave's sheet (the grid its rooms are laid on, one under another,
    for the player's chain) as a player sees it: its room and the room's own row and column.

    >>> cave = Cave.parse("room a\\n#1#\\n#.2\\n###\\nroom b\\n#1#\\n2.#\\n###\\ndoor a:2 b:2\\n"
    ...                   "entrance a:1\\nexit b:1")
    >>> where = room_cells(cave)
    >>> where((1, 1)), where((4, 1))
    (('a', (1, 1)), ('b', (1, 1)))
    """
    laid = sheet(cave)

    def name(cell) -> tuple[str, tuple[int, int]]:
        flat = laid.level.index(tuple(cell))
        return laid.room_of(flat), laid.local(flat)

    return name
