"""A cave's rooms as the designer's requests: each room's routes and bands from the plan, its keys
carried only on the passages the plan takes them on (``request_for_room``, ``keys_carried``),
what a passage can hold (``passage_capacity``), and one room designed on its budget of work
(``design_room``)."""

from __future__ import annotations

from dataclasses import replace

from designer.caves import plan as planning
from designer.caves.cave import Cave
from designer.core.bands import RouteBand
from designer.core.request import LayoutRequest


def request_for_room(
    cave: Cave,
    name: str,
    bands: dict,
    ceiling: int | None,
    caps: dict | None = None,
    keys: bool = True,
    carry: frozenset | None = None,
) -> LayoutRequest:
    """The request of free room ``name``: its template, every pair of doors strong and reversible
    (floor 1), and each planned route with its band: its floor, and at most ``ceiling`` (from the
    cave's --max-stops) or its passage's ceiling in ``caps`` (a user's --room or --route K..M), the
    lower of the two. Its keys are its items (``keys``; False: ice, as the cave reads its routes)
    on the routes ``carry`` names (the passages the plan takes them on: ``keys_carried``; None: every
    route), so that a player can take them there, though in the cave a key never shuts a door."""
    room = cave.room(name)
    asked = {(p.a, p.b): floor for p, floor in bands.items() if p.room == name}
    capped = {(p.a, p.b): top for p, top in (caps or {}).items() if p.room == name}
    numbers = sorted(room.doors)
    for k, a in enumerate(numbers):
        for b in numbers[k + 1 :]:
            if (a, b) not in asked and (b, a) not in asked:
                asked[(a, b)] = 1
    if len(numbers) == 1 and keys and room.stars:  # a vault: out to its keys and back
        asked.setdefault((numbers[0], numbers[0]), 1)

    def top(route: tuple[int, int], floor: int) -> int | None:
        tops = [] if floor == 1 or ceiling is None else [max(floor, ceiling)]
        if route in capped:
            tops.append(max(floor, capped[route]))
        return min(tops, default=None)

    def carried(route: tuple[int, int]) -> bool:
        return carry is None or route in carry or route[::-1] in carry or route[0] == route[1]

    routes = tuple(
        RouteBand(a, b, floor, top((a, b), floor), carried((a, b)))
        for (a, b), floor in sorted(asked.items())
    )
    h, w = room.shape
    # a coin's cell is fixed ice: the coin goes back on it
    rows = tuple(row.replace("$", ".") for row in room.rows)
    template = rows if keys else tuple(row.replace("*", ".") for row in rows)
    request = LayoutRequest(
        height=h, width=w, frame=False, min_stops=1, template=template, routes=routes
    )
    return replace(request, snow=request.fixed_snow())  # the snow a room draws, and none placed


def passage_capacity(cave: Cave, passage: planning.Passage) -> int:
    """The most stops the cheap bounds allow the passage's route (``designer.analysis.bounds``)."""
    from designer.analysis.bounds import most_stops

    # a vault's: its keys
    request = request_for_room(cave, passage.room, {}, None, keys=passage.a == passage.b)
    return max(1, most_stops(request.route_request(RouteBand(passage.a, passage.b, 1))))


def keys_carried(cave: Cave, graph: list, bands: dict) -> dict:
    """Each room whose keys the plan's way takes, and the passages (A, B, A not B) it takes them
    on: there alone its room carries them (``request_for_room``). A room with keys whose keys the
    way takes on no passage of two doors (out by the door it came in by) carries them on every
    route, as does a vault on its one."""
    reached = planning.shortest(cave, graph, lambda e: bands[e.passage] if e.designed else e.weight)
    found: dict = {}
    for edge in reached[1] if reached is not None else ():
        if edge.after & ~edge.held and edge.passage.a != edge.passage.b:
            found.setdefault(edge.passage.room, set()).add((edge.passage.a, edge.passage.b))
    return {room: frozenset(routes) for room, routes in found.items()}


def design_room(job):
    """One free room of a cave (a ``designer.search.job.DesignJob``), designed on a budget of
    work: its seconds are counted on the work clock (``designer.core.budget``, "work": what the
    kernels and CP-SAT report), so that a busy machine takes longer over it and designs the same
    room, step for step. A shard of its own, for the lanes and a cluster alike."""
    from designer.search.packs import run_on_work

    return run_on_work(job)


def stops_reached(failed, passage: planning.Passage) -> int | None:
    """The stops the best layout a failed room design found gives the passage's route, if any."""
    best = getattr(failed, "best", None)
    routes = getattr(best, "routes", None)
    for one in getattr(routes, "routes", ()):
        if one.route == (passage.a, passage.b) and one.analysis.min_stops:
            return one.analysis.min_stops
    return None


def measured_rooms(cave: Cave):
    """A filled room's passage stops: its route's min stops (its keys as ice)."""
    from designer.analysis.classify import min_stops

    def measure(passage: planning.Passage) -> int | None:
        stops = min_stops(cave.room(passage.room).plain.route(passage.a, passage.b))
        return stops if stops > 0 else None

    return measure


def outside_caps(cave: Cave, low: dict, caps: dict) -> str | None:
    """Why a filled cave's passages break a user's bands (--room, --route), or None. The rooms
    are designed to them; this checks the whole cave as it is handed back."""
    measure = measured_rooms(cave)
    for p, top in sorted(caps.items(), key=lambda item: str(item[0])):
        stops = measure(p)
        if stops is None or not low[p] <= stops <= top:
            return f"room {p.room}'s route {p.a}:{p.b} has {stops or 'no'} min stops, outside {low[p]}..{top}"
    return None
