"""Designing a cave: plan the bands of the free rooms' passages (``designer.caves.plan``), design
each free room on its own with its bands (the designer's portfolio, ``designer.search``: side by
side on processes, a lane per core, or at once on a dask cluster), then verify the cave whole
(``graph.failure``).

A room that cannot meet its bands in its share of the time sends the plan back with those
passages' most lowered; a cave that falls short of its band raises the floors of the passages on
its shortest way; a room that makes the cave weak is designed again from another seed. A request
no plan can meet is proven so before any room is designed (``plan.Infeasible``).

Each room k is designed from seed ``seed + k`` (``+ 1000`` a round after a redesign, and
``+ RETRY_SEED`` each time that room ran out of time) on one
worker (``workers`` 1, the default: a dask worker is a daemon process, which may not start the
processes a room designs its chains in), so a seed gives the same cave on processes, here or on
dask whenever the rooms are found before their time limits.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from designer.caves import graph as cave_graph
from designer.caves import plan as planning
from designer.caves.cave import Cave
from designer.core.budget import Budget
from designer.core.control import Cancelled, CancelToken, OnProgress, Steps, no_progress
from designer.core.control import check as check_cancel
from designer.core.errors import DesignerError, RequestNotMet
from designer.core.request import LayoutRequest, RouteBand

#: Rounds of plan, design and verify before the designer gives up (each round's rooms are cached).
MAX_ROUNDS = 12
#: What a room's seed moves by each time its design runs out of time: a search stuck from one seed
#: is often quick from another.
RETRY_SEED = 100_000
#: The least seconds a room's design is given.
ROOM_SECONDS = 2.0
#: What a passage likely holds, as a share of the cells the player may rest on in its room: the
#: longest levels known hold about half their inside (7x7: 13 of 25; 8x8: 21 of 36). The plan
#: spreads its bands over this headroom; the cheap bounds alone cap it.
LIKELY_SHARE = 0.45


@dataclass(frozen=True)
class CaveRequest:
    """What a cave is asked for: the ``cave`` (its free rooms to fill), the band of its way
    through, and bands a user gives per route (``routes``: (room, a, b, floor, ceiling)) or per
    room (``rooms``: (room, floor, ceiling): every passage of it). ``grammar`` records how a cave
    asked for from nothing was drawn (``designer.caves.grammar``), for ``--from``."""

    cave: Cave
    min_stops: int = 30
    max_stops: int | None = None
    routes: tuple = ()
    rooms: tuple = ()
    grammar: dict | None = None

    def to_json(self) -> dict:
        found = {"cave": str(self.cave), "min_stops": self.min_stops}
        if self.max_stops is not None:
            found["max_stops"] = self.max_stops
        if self.routes:
            found["routes"] = [list(route) for route in self.routes]
        if self.rooms:
            found["rooms"] = [list(room) for room in self.rooms]
        if self.grammar:
            found["grammar"] = self.grammar
        return found

    @classmethod
    def from_json(cls, obj: object) -> CaveRequest:
        if not isinstance(obj, dict) or not isinstance(obj.get("cave"), str) or type(obj.get("min_stops")) is not int:
            raise DesignerError("the cave's generator record holds no request (cave and min_stops)")
        try:
            return cls(Cave.parse(obj["cave"]), obj["min_stops"], obj.get("max_stops"),
                       tuple(tuple(route) for route in obj.get("routes", ())),
                       tuple(tuple(room) for room in obj.get("rooms", ())), obj.get("grammar"))
        except TypeError:
            raise DesignerError("the cave's generator record's request is not one") from None


@dataclass(frozen=True)
class CaveDesign:
    """A designed cave, verified, its analysis, and the record that makes it again."""

    cave: Cave
    analysis: object
    record: dict = field(default_factory=dict)


class CaveFailed(RequestNotMet):
    """A cave request not met: ``reason`` is "infeasible" (proven) or "time limit"."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


def _room_request(cave: Cave, name: str, bands: dict, ceiling: int | None, caps: dict | None = None,
                  keys: bool = True, carry: frozenset | None = None) -> LayoutRequest:
    """The request of free room ``name``: its template, every pair of doors strong and reversible
    (floor 1), and each planned route with its band: its floor, and at most ``ceiling`` (from the
    cave's --max-stops) or its passage's ceiling in ``caps`` (a user's --room or --route K..M), the
    lower of the two. Its keys are its items (``keys``; False: ice, as the cave reads its routes)
    on the routes ``carry`` names (the passages the plan takes them on: ``_carried``; None: every
    route), so that a player can take them there, though in the cave a key never shuts a door."""
    room = cave.room(name)
    asked = {(p.a, p.b): floor for p, floor in bands.items() if p.room == name}
    capped = {(p.a, p.b): top for p, top in (caps or {}).items() if p.room == name}
    numbers = sorted(room.doors)
    for k, a in enumerate(numbers):
        for b in numbers[k + 1:]:
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

    routes = tuple(RouteBand(a, b, floor, top((a, b), floor), carried((a, b)))
                   for (a, b), floor in sorted(asked.items()))
    h, w = room.shape
    rows = tuple(row.replace("$", ".") for row in room.rows)  # a coin's cell is fixed ice: the coin goes back on it
    template = rows if keys else tuple(row.replace("*", ".") for row in rows)
    request = LayoutRequest(height=h, width=w, frame=False, min_stops=1, template=template, routes=routes)
    return replace(request, snow=request.fixed_snow())  # the snow a room draws, and none placed


def _capacity(cave: Cave, passage: planning.Passage) -> int:
    """The most stops the cheap bounds allow the passage's route (``designer.analysis.bounds``)."""
    from designer.analysis.bounds import most_stops

    request = _room_request(cave, passage.room, {}, None, keys=passage.a == passage.b)  # a vault's: its keys
    return max(1, most_stops(request.route_request(RouteBand(passage.a, passage.b, 1))))


def _carried(cave: Cave, graph: list, bands: dict) -> dict:
    """Each room whose keys the plan's way takes, and the passages (A, B, A not B) it takes them
    on: there alone its room carries them (``_room_request``). A room with keys whose keys the
    way takes on no passage of two doors (out by the door it came in by) carries them on every
    route, as does a vault on its one."""
    reached = planning.shortest(cave, graph, lambda e: bands[e.passage] if e.designed else e.weight)
    found: dict = {}
    for edge in reached[1] if reached is not None else ():
        if edge.after & ~edge.held and edge.passage.a != edge.passage.b:
            found.setdefault(edge.passage.room, set()).add((edge.passage.a, edge.passage.b))
    return {room: frozenset(routes) for room, routes in found.items()}


def design_room(job):
    """One free room of a cave (a ``designer.search.packs.PackJob``), designed on a budget of
    work: its seconds are counted on the work clock (``designer.core.budget``, "work": what the
    kernels and CP-SAT report), so that a busy machine takes longer over it and designs the same
    room, step for step. A shard of its own, for the lanes and a cluster alike."""
    from designer.core.budget import use_clock
    from designer.search.packs import run_pack_job

    with use_clock("work"):
        return run_pack_job(job)


def _reached(failed, passage: planning.Passage) -> int | None:
    """The stops the best layout a failed room design found gives the passage's route, if any."""
    best = getattr(failed, "best", None)
    routes = getattr(best, "routes", None)
    for one in getattr(routes, "routes", ()):
        if one.route == (passage.a, passage.b) and one.analysis.min_stops:
            return one.analysis.min_stops
    return None


def _measured(cave: Cave):
    """A filled room's passage stops: its route's min stops (its keys as ice)."""
    from designer.analysis.classify import min_stops

    def measure(passage: planning.Passage) -> int | None:
        stops = min_stops(cave.room(passage.room).plain.route(passage.a, passage.b))
        return stops if stops > 0 else None

    return measure


def _outside(cave: Cave, low: dict, caps: dict) -> str | None:
    """Why a filled cave's passages break a user's bands (--room, --route), or None. The rooms
    are designed to them; this checks the whole cave as it is handed back."""
    measure = _measured(cave)
    for p, top in sorted(caps.items(), key=lambda item: str(item[0])):
        stops = measure(p)
        if stops is None or not low[p] <= stops <= top:
            return f"room {p.room}'s route {p.a}:{p.b} has {stops or 'no'} min stops, outside {low[p]}..{top}"
    return None


def check_keys(cave: Cave) -> None:
    """Refuse a cave whose key cannot matter: the exit must be out of reach without each key,
    every room taken as open between all its doors, and every other key held only once the room
    it lies in is reached (a key behind another key's lock is not held before that lock opens).
    One DesignerError line."""
    for key in cave.keys:
        if cave.exit in _reached_without(cave, key.name):
            raise DesignerError(f"key {key.name} cannot matter: the exit is reached without passing a link it "
                                f"opens (lock a link that every way to the exit passes)")


def drawn_failing(cave: Cave) -> list[str]:
    """Each room drawn whole (no free cell) whose own route is not strong and reversible, in a
    line: no design can change it, and a cave handed back needs every room's routes to hold."""
    from designer.analysis.classify import classify

    found = []
    for room in cave.rooms:
        if room.free:
            continue
        plain = room.plain
        for a, b in plain.routes():
            got = classify(plain.route(a, b))
            why = got.solvability if got.solvability != "strong" else None if got.reversible else "not reversible"
            if why:
                found.append(f"room {room.name} is drawn whole and its route {a}:{b} is {why}: no fill can "
                             f"change it (free some of its cells with ?)")
                break
    return found


def refusals(cave: Cave) -> list[str]:
    """What ``designer cave`` would refuse of ``cave`` before any search, each in its one line: a
    key that cannot matter, a room drawn whole that fails its own routes, and each free room's
    request that makes no sense (a walled-in door, a door on drawn snow, ...). Empty when the
    plan can start. What the studio shows live.

    >>> refusals(Cave.parse("room a\\n#1#\\n#?2\\n###\\nroom b\\n#1#\\n2.#\\n###\\ndoor a:2 b:2\\n"
    ...                     "entrance a:1\\nexit b:1"))
    []
    """
    from designer.search.validation import validate

    found = []
    try:
        check_keys(cave)
    except DesignerError as exc:
        found.append(str(exc))
    found += drawn_failing(cave)
    for room in cave.rooms:
        if room.free:
            try:
                validate(_room_request(cave, room.name, {}, None))
            except DesignerError as exc:
                found.append(f"room {room.name}: {exc}")
    return found


def _reached_without(cave: Cave, missing: str) -> set:
    """The doors a player reaches from the entrance who never holds key ``missing``: rooms open
    between their doors, links passable both ways (a hole one way), a locked one once its key is
    held, and a key held once its room is reached."""
    doors = {room.name: [(room.name, n) for n in room.doors] for room in cave.rooms}
    where = {key.name: key.room for key in cave.keys}
    reached, rooms, held = {cave.entrance, *doors[cave.entrance[0]]}, {cave.entrance[0]}, set()
    grown = True
    while grown:
        grown = False
        held |= {name for name, room in where.items() if room in rooms and name != missing}
        for link in cave.links:
            if link.lock is not None and link.lock not in held:
                continue
            for a, b in ((link.a, link.b),) if link.one_way else ((link.a, link.b), (link.b, link.a)):
                if (a in reached or a[0] in rooms) and b not in reached:
                    reached.add(b)
                    grown = True
                    if b[0] not in rooms:
                        rooms.add(b[0])
                        reached.update(doors[b[0]])
    return reached


def design(request: CaveRequest, *, seed: int = 0, time_limit: float = 60.0, workers: int | None = None,
           executor=None, on_progress: OnProgress = no_progress, cancel: CancelToken | None = None) -> CaveDesign:
    """A verified cave meeting ``request`` (see the module docstring), or CaveFailed saying why.
    ``executor``: where the rooms go (a dask cluster); none: side by side on processes forked from
    this one (one per core, rooms on one worker each), or one after another here (one room to
    design, one core, or ``workers`` above 1). On the wall clock, ``time_limit`` is a net over
    the whole design: when it ends, the rooms still designing are ended and the cave is "time
    limit reached" (never another cave: each room's own budget is of work)."""
    import os
    import threading

    from designer.core.budget import default_clock
    from designer.search.executor import Forked

    workers = workers or 1
    if executor is not None and workers != 1:
        raise DesignerError("on dask each room is designed by one worker process: leave --workers out")
    check_keys(request.cave)
    failing = drawn_failing(request.cave)
    if failing:
        raise DesignerError(failing[0])
    net = CancelToken(cancel)  # the user's cancel, or the time limit's
    held: list[str] = []  # what holds the cave back, as the rounds find it (``_design``)
    free = [room.name for room in request.cave.rooms if room.free]
    lanes = min(os.cpu_count() or 1, len(free))
    forked = timer = None

    def time_is_up() -> None:
        if forked is not None:
            forked.grace = 0.0  # a room's design has nothing to keep: its lane ends at once
        net.cancel()

    try:
        if executor is None and workers == 1 and lanes >= 2:
            forked = executor = Forked(lanes, net)  # before this process runs the plan's solver
        if default_clock() == "wall":
            timer = threading.Timer(time_limit, time_is_up)
            timer.daemon = True
            timer.start()
        return _design(request, seed, time_limit, workers, executor, on_progress, net, held)
    except Cancelled:
        if cancel is not None and cancel.is_set() or not net.is_set():
            raise
        raise CaveFailed("time limit", f"time limit reached: no cave met min stops {request.min_stops} in "
                                       f"{time_limit:g} s" + (f" ({held[-1]})" if held else "")) from None
    finally:
        if timer is not None:
            timer.cancel()
        if forked is not None:
            forked.close()


#: The share of the time limit a round's rooms get as their budgets of work, all together (each
#: at least ``ROOM_SECONDS``): a figure of the request, never of the time left, so that a seed
#: designs the same rooms at any load.
ROUND_SHARE = 0.5


def _design(request: CaveRequest, seed: int, time_limit: float, workers: int, executor, on_progress: OnProgress,
            cancel: CancelToken, held_back: list[str]) -> CaveDesign:
    from designer.search.packs import PackJob
    from designer.search.result import DesignFailed

    clock = Budget(time_limit)  # the cave's: its rounds (each room's budget is of work: ``design_room``)
    cave = request.cave
    free = [room.name for room in cave.rooms if room.free]
    graph = planning.edges(cave, set(free), _measured(cave))
    passages = sorted({edge.passage for edge in graph if edge.designed}, key=str)
    most = {p: _capacity(cave, p) for p in passages}
    likely = {p: max(1, round(LIKELY_SHARE * (most[p] + 1))) for p in passages}
    low = {p: 1 for p in passages}
    caps: dict = {}  # a user's ceilings: --room ROOM=K..M and --route ROOM:A:B=K..M
    for name, floor, ceiling in request.rooms:
        cave.room(name)
        for p in passages:
            if p.room == name:
                low[p] = max(low[p], floor)
                if ceiling is not None:
                    caps[p] = min(caps.get(p, ceiling), ceiling)
    for name, a, b, floor, ceiling in request.routes:
        hits = [p for p in passages if (p.room, p.a, p.b) == (name, a, b)]
        if not hits:
            raise DesignerError(f"route {name}:{a}:{b} is no passage of a free room (from a door one enters by "
                                f"to a door one leaves by)")
        for p in hits:
            low[p] = max(low[p], floor)
            if ceiling is not None:
                caps[p] = min(caps.get(p, ceiling), ceiling)
    for p, top in caps.items():
        if top < low[p]:
            raise DesignerError(f"room {p.room}'s route {p.a}:{p.b} is asked for at least {low[p]} and at most "
                                f"{top} stops (--room and --route bands that do not meet)")
        most[p] = min(most[p], top)
        likely[p] = min(likely[p], most[p])
    for p in passages:
        if low[p] > most[p]:
            raise CaveFailed("infeasible", f"proven infeasible: room {p.room}'s route {p.a}:{p.b} holds at most "
                                           f"{most[p]} stops, below its floor {low[p]}")
    if request.max_stops is not None:  # every passage at its floor: no way through is shorter
        least = planning.shortest(cave, graph, lambda e: low[e.passage] if e.designed else e.weight)
        if least is not None and least[0] > request.max_stops:
            rooms = ", ".join(dict.fromkeys(edge.passage.room for edge in least[1]))
            raise CaveFailed("infeasible", f"proven infeasible: the shortest way, through rooms {rooms}, makes at "
                                           f"least {least[0]} stops (a move or more a passage), above --max-stops "
                                           f"{request.max_stops}")
    steps = Steps(on_progress, len(free), "planning the bands")
    made: dict = {}  # (room, its bands, the routes carrying its keys) -> the designed room
    tries: dict = {}  # room -> its designs that ran out of time: the next starts from another seed
    rounds, redesign = 0, 0

    def held(why: str) -> None:
        """What holds the cave back now: shown as the round goes, and said if the time ends."""
        held_back[:] = [why]
        steps.label(f"round {rounds}: {why}")

    while True:
        check_cancel(cancel)
        left = clock.left()
        if rounds >= MAX_ROUNDS or left <= 0:
            raise CaveFailed("time limit", f"time limit reached: no cave met min stops {request.min_stops} in "
                                           f"{time_limit:g} s ({rounds} rounds of plan, rooms and check"
                                           f"{''.join('; ' + why for why in held_back)})")
        rounds += 1
        try:
            bands = planning.solve(cave, graph, low, most, request.min_stops, min(10.0, left), seed, likely)
        except planning.Unsettled as exc:
            raise CaveFailed("time limit", f"time limit reached: {exc}") from None
        except planning.Infeasible as exc:
            reason = "infeasible" if rounds == 1 else "time limit"
            head = "proven infeasible" if rounds == 1 else "time limit reached: the rooms could not hold their bands"
            raise CaveFailed(reason, f"{head}: {exc}, below {request.min_stops}") from None
        ceiling = None
        if request.max_stops is not None:
            on_way = max(1, len(set(planning.way_rooms(cave, graph, bands))))
            ceiling = (request.max_stops - request.min_stops) // on_way
        carried = _carried(cave, graph, bands)
        jobs, order, keys = [], [], {}
        for k, name in enumerate(free):
            mine = {p: s for p, s in bands.items() if p.room == name}
            carry = carried.get(name)
            keys[name] = key = (name, tuple(sorted((str(p), s) for p, s in mine.items())), carry, redesign)
            if key in made:
                continue
            room_request = _room_request(cave, name, mine, None if ceiling is None else
                                         max(mine.values(), default=1) + ceiling, caps, carry=carry)
            order.append((name, key, mine))
            jobs.append(PackJob(room_request, seed + k + 1000 * redesign + RETRY_SEED * tries.get(name, 0), 0.0,
                                workers, False, "auto"))
        share = max(ROOM_SECONDS, ROUND_SHARE * time_limit / max(1, len(jobs)))  # of work: the request's figure
        jobs = [replace(job, time_limit=share) for job in jobs]
        steps.label(f"round {rounds}: designing {len(jobs)} room{'s' if len(jobs) != 1 else ''}")
        results: dict = {}
        if executor is not None and len(jobs) > 1:

            def designed(job, result, results=results) -> None:
                results[job.seed] = result
                steps.step()

            executor.run(design_room, jobs, designed)
        else:
            for job in jobs:
                results[job.seed] = design_room(replace(job, cancel=cancel))
                check_cancel(cancel)
                steps.step()
        failed_rooms = []
        for (name, key, mine), job in zip(order, jobs):
            result = results[job.seed]
            if isinstance(result, DesignFailed):
                if result.reason == "infeasible" and all(s <= low[p] for p, s in mine.items()):
                    raise CaveFailed("infeasible", f"proven infeasible: room {name} cannot hold its floors ({result})")
                failed_rooms.append(f"room {name}: {_short(result)}")
                if result.reason != "infeasible":
                    tries[name] = tries.get(name, 0) + 1
                for p, s in mine.items():  # ask less of it: proven, below the floor; else what was found
                    if s > low[p]:
                        found = _reached(result, p)
                        cut = s - 1 if result.reason == "infeasible" else s - max(1, s // 10)
                        most[p] = max(low[p], min(most[p], cut, found if found is not None and found < s else cut))
                        likely[p] = min(likely[p], most[p])
            else:
                made[key] = result.room
        if failed_rooms:
            held("; ".join(failed_rooms))
            continue
        filled = cave.filled({name: made[keys[name]] for name in free})
        report = cave_graph.analyze(filled)
        why = cave_graph.failure(filled, request.min_stops, request.max_stops, report) or _outside(filled, low, caps)
        if why is None:
            record = {"method": "cave", "seed": seed, "time_limit": time_limit, "workers": workers,
                      "seconds": round(clock.seconds(), 3), "rounds": rounds,
                      "bands": {str(p): s for p, s in sorted(bands.items(), key=lambda x: str(x[0]))},
                      "request": request.to_json()}
            return CaveDesign(filled, report, record)
        held(f"the cave filled in round {rounds} failed its check: {why}")
        if (report.way is not None and report.strong and report.min_stops is not None
                and report.min_stops < request.min_stops):
            short = request.min_stops - report.min_stops
            along = [p for p in passages if p.room in {visit.room for visit in report.way.visits}]
            for p in along:
                low[p] = min(most[p], max(low[p], bands[p] + -(-short // max(1, len(along)))))
        else:
            redesign += 1  # weak as a whole, or a key idle: the rooms again, from other seeds


def _short(failed) -> str:
    """A room's failed design in a few words: its message without the head every one shares."""
    text = str(failed)
    for head in ("time limit reached: ", "proven infeasible: "):
        if text.startswith(head):
            return ("out of its work: " if head.startswith("time") else "") + text[len(head):]
    return text
