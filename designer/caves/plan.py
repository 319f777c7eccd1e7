"""The plan of a cave: a band for each passage through each free room, chosen so that every way
from the entrance to the exit meets the cave's band, posed as a small CP-SAT model; and the proof
when no plan can.

A **passage** runs through one room from a door the player can enter it by (the entrance, or a
link's landing door) to a door they can leave it by (the exit, or a link's door); in a room that
holds keys it may take them or pass them by. The player's way through the cave is a chain of
passages, and a passage's stops are at least its room's route min stops, keys or no keys (inside
the cave the room's other doors lead away instead of holding the player, and a key is ice to the
room, so it has no more paths than alone).

So the cave's min stops is at least the shortest way over a graph of nodes (door rested on, keys
held), whose edges are the passages, a locked link's passage only with its key. By LP duality a
shortest way is at least K exactly when there are **potentials**, one number per node, 0 at the
entrance and K or more at the exit, that no edge rises by more than its weight. The model holds
a variable per free room's passage (its band's floor, between the user's floor and what the room
can hold by the cheap bounds) and the potentials, and minimizes the largest share of its room's
capacity any passage is asked for, then their sum. Passages of filled rooms weigh their measured
stops; going back out through the door one came in by weighs the least it can (2).

No plan exists exactly when the shortest way with every passage at its most is below K: that
way names the rooms that hold the cave back (``Infeasible``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from designer.caves.cave import Cave
from designer.caves.parts import Door
from designer.core.errors import LevelError

EXIT = ("", 0)  # the node the exit's passages end in


@dataclass(frozen=True)
class Passage:
    """Through ``room`` from door ``a`` to door ``b``."""

    room: str
    a: int
    b: int

    def __str__(self) -> str:
        return f"{self.room} {self.a}:{self.b}"


@dataclass(frozen=True)
class Edge:
    """From resting on door ``source`` holding keys ``held`` to ``target`` (a door, or EXIT) holding
    ``after``, by ``passage``; its weight is the passage's band (``designed``) or ``weight``."""

    source: Door
    held: int
    target: Door
    after: int
    passage: Passage
    designed: bool
    weight: int


@dataclass
class CavePlan:
    """The floor of each designed passage (its route's band), and the model's verdict."""

    bands: dict = field(default_factory=dict)  # Passage: floor
    most: dict = field(default_factory=dict)  # Passage: the most its room can hold (may tighten)


class Infeasible(Exception):
    """No plan meets the band: ``way`` is the shortest way with every passage at its most."""

    def __init__(self, stops: int, way: list):
        self.stops, self.way = stops, way
        rooms = list(dict.fromkeys(edge.passage.room for edge in way))
        parts = ", ".join(f"{edge.passage} at most {edge.weight}" for edge in way)
        super().__init__(
            f"the way through rooms {', '.join(rooms)} holds at most {stops} stops ({parts})"
        )


def edges(cave: Cave, designed: set[str], measured) -> list[Edge]:
    """The passage graph of ``cave`` (see the module docstring). ``designed``: the free rooms;
    ``measured(passage)``: a filled room's passage stops (None: no way through)."""
    names = [key.name for key in cave.keys]
    keys_in = {
        room.name: sum(1 << names.index(k.name) for k in cave.keys if k.room == room.name)
        for room in cave.rooms
    }
    enter: dict[str, set[int]] = {room.name: set() for room in cave.rooms}
    leave: dict[
        Door, tuple[Door, str | None]
    ] = {}  # a door one leaves by: where it leads, its lock
    enter[cave.entrance[0]].add(cave.entrance[1])
    for link in cave.links:
        enter[link.b[0]].add(link.b[1])
        leave[link.a] = (link.b, link.lock)
        if not link.one_way:
            enter[link.a[0]].add(link.a[1])
            leave[link.b] = (link.a, link.lock)
    leave[cave.exit] = (EXIT, None)
    found = []
    for room in cave.rooms:
        doors_out = [n for n in room.doors if (room.name, n) in leave]
        for a in sorted(enter[room.name]):
            for b in doors_out:
                target, lock = leave[(room.name, b)]
                passage = Passage(room.name, a, b)
                if a == b and len(room.doors) > 1:
                    # out by the door one came in by: at least out and back
                    weight, design = (
                        2,
                        False,
                    )
                elif room.name in designed:
                    weight, design = 0, True
                else:
                    weight, design = measured(passage), False
                    if weight is None:
                        continue
                for takes in (True, False) if keys_in[room.name] else (False,):
                    for held in range(1 << len(names)):
                        after = held | (keys_in[room.name] if takes else 0)
                        if lock is None or after >> names.index(lock) & 1:
                            found.append(
                                Edge(
                                    (room.name, a),
                                    held,
                                    target,
                                    after if target != EXIT else 0,
                                    passage,
                                    design,
                                    weight,
                                )
                            )
    return found


def shortest(cave: Cave, graph: list[Edge], weight) -> tuple[int, list[Edge]] | None:
    """The shortest way from the entrance to the exit over ``graph``, each edge weighing
    ``weight(edge)``: (stops, edges), or None when the exit cannot be reached."""
    best, back = distances(cave, graph, weight)
    start, node = (cave.entrance, 0), (EXIT, 0)
    if node not in best:
        return None
    way = []
    while node != start:
        way.append(back[node])
        node = (back[node].source, back[node].held)
    return best[(EXIT, 0)], way[::-1]


def distances(cave: Cave, graph: list[Edge], weight) -> tuple[dict, dict]:
    """The shortest distance from the entrance to every node ``graph`` reaches, each edge
    weighing ``weight(edge)``, and the edge each is last reached by (Dijkstra's)."""
    import heapq

    start = (cave.entrance, 0)
    out: dict = {}
    for edge in graph:
        out.setdefault((edge.source, edge.held), []).append(edge)
    best, back, heap = {start: 0}, {}, [(0, 0, start)]
    count = 0
    while heap:
        cost, _, node = heapq.heappop(heap)
        if cost > best[node]:
            continue
        for edge in out.get(node, ()):
            nxt = (edge.target, edge.after)
            if cost + weight(edge) < best.get(nxt, cost + weight(edge) + 1):
                best[nxt] = cost + weight(edge)
                back[nxt] = edge
                count += 1
                heapq.heappush(heap, (best[nxt], count, nxt))
    return best, back


def solve(
    cave: Cave,
    graph: list[Edge],
    low: dict,
    most: dict,
    min_stops: int,
    time_limit: float = 10.0,
    seed: int = 0,
    likely: dict | None = None,
) -> dict:
    """The bands: for each designed passage (keys of ``low`` and ``most``) a floor between its
    ``low`` and ``most``, such that every way through makes at least ``min_stops``; the largest
    share of its headroom (from ``low`` up to ``likely``, what such a room likely holds; ``most``
    when not given) any passage is asked for made as small as it can be, then their sum. Raises
    ``Infeasible`` (naming the way that holds the cave back) when no bands can."""
    from designer.core.budget import default_clock
    from designer.models.loader import cp_model
    from designer.models.solve import new_solver

    reached = shortest(cave, graph, lambda e: most[e.passage] if e.designed else e.weight)
    if reached is None:
        raise LevelError(
            "the exit cannot be reached from the entrance through the cave's links and locks"
        )
    if reached[0] < min_stops:
        raise Infeasible(reached[0], [_at_most(edge, most) for edge in reached[1]])
    model = cp_model.CpModel()
    top = sum(most.values()) + sum(e.weight for e in graph) + min_stops
    band = {
        p: model.NewIntVar(low[p], most[p], f"s{k}") for k, p in enumerate(sorted(low, key=str))
    }
    nodes = {(e.source, e.held) for e in graph} | {(e.target, e.after) for e in graph}
    pot = {node: model.NewIntVar(0, top, f"p{k}") for k, node in enumerate(sorted(nodes, key=str))}
    model.Add(pot[(cave.entrance, 0)] == 0)
    for edge in graph:
        weight = band[edge.passage] if edge.designed else edge.weight
        model.Add(pot[(edge.target, edge.after)] <= pot[(edge.source, edge.held)] + weight)
    model.Add(pot[(EXIT, 0)] >= min_stops)
    likely = likely or most
    # the largest rise over a floor, in thousandths of its headroom
    share = model.NewIntVar(0, 10**6, "share")
    for p, var in band.items():
        model.Add((var - low[p]) * 1000 <= share * max(1, min(most[p], likely[p]) - low[p]))
    model.Minimize(share * (len(band) * top + 1) + sum(band.values()))
    # a plan the model starts from: every passage at its most, each node at its distance (the
    # check above found the exit at least min_stops away); a node never reached at the top
    near, _ = distances(cave, graph, lambda e: most[e.passage] if e.designed else e.weight)
    for p, var in band.items():
        model.AddHint(var, most[p])
    for node, var in pot.items():
        model.AddHint(var, min(top, near.get(node, top)))
    model.AddHint(
        share,
        max(
            (
                -(-(most[p] - low[p]) * 1000 // max(1, min(most[p], likely[p]) - low[p]))
                for p in band
            ),
            default=0,
        ),
    )
    # the designer's parameters: never CP-SAT's Ctrl-C handler (it left SIGINT at the default).
    # The plan's budget is CP-SAT's deterministic time, a measure of its work, so that a seed
    # plans the same at any load; the seconds are only a net (``Unsettled`` when they end first).
    solver = new_solver(seed, max(0.5, time_limit), 1, presolve="none", clock=default_clock())
    solver.parameters.max_deterministic_time = PLAN_WORK
    status = solver.Solve(model)
    if status == cp_model.OPTIMAL or (
        status == cp_model.FEASIBLE and solver.deterministic_time >= 0.99 * PLAN_WORK
    ):
        return {p: int(solver.Value(var)) for p, var in band.items()}
    raise Unsettled(
        f"the cave's plan was not settled within {max(0.5, time_limit):g} s "
        f"({solver.deterministic_time:.2f} of its {PLAN_WORK:g} units of work done)"
    )


#: The plan's budget of work: CP-SAT's deterministic time (48 rooms and 4 keys, 3,600 edges, take
#: about 0.35 of it to prove their plan optimal).
PLAN_WORK = 5.0


class Unsettled(Exception):
    """The plan's seconds ended before its work did: its answer would depend on the machine's
    load, so there is none."""


def _at_most(edge: Edge, most: dict) -> Edge:
    from dataclasses import replace

    return replace(edge, weight=most[edge.passage]) if edge.designed else edge


def way_rooms(cave: Cave, graph: list[Edge], bands: dict) -> list[str]:
    """The rooms of the plan's shortest way, in order."""
    reached = shortest(cave, graph, lambda e: bands[e.passage] if e.designed else e.weight)
    return [] if reached is None else [edge.passage.room for edge in reached[1]]
