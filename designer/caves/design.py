"""Designing a cave: plan the bands of the free rooms' passages (``designer.caves.plan``), design
each free room on its own with its bands (the designer's portfolio, ``designer.search``: side by
side on processes, a lane per core, or at once on a dask cluster), then verify the cave whole
(``cave_analysis.failure``).

A room that cannot meet its bands in its share of the time sends the plan back with those
passages' most lowered; a cave that falls short of its band raises the floors of the passages on
its shortest way; a room that makes the cave weak is designed again from another seed. A request
no plan can meet is proven so before any room is designed (``plan.Infeasible``). A cave asked a
band of predicted difficulty is designed again, whole, from other seeds, until it lands in it
(``designer.caves.felt``), the time limit covering every design.

Each room k is designed from seed ``seed + k`` (``+ 1000`` a round after a redesign, and
``+ RETRY_SEED`` each time that room ran out of time) on one
worker (``workers`` 1, the default: a dask worker is a daemon process, which may not start the
processes a room designs its chains in), so a seed gives the same cave on processes, here or on
dask whenever the rooms are found before their time limits.
"""

from __future__ import annotations

from designer.caves import cave_analysis, felt
from designer.caves import plan as planning
from designer.caves.asking import passage_bounds
from designer.caves.cave_request import CaveDesign, CaveFailed, CaveRequest
from designer.caves.refusals import check_keys, drawn_failing
from designer.caves.room_jobs import (
    design_room,
    keys_carried,
    measured_rooms,
    outside_caps,
    request_for_room,
    stops_reached,
)
from designer.core.budget import Budget
from designer.core.control import Cancelled, CancelToken, OnProgress, Steps, Update, no_progress
from designer.core.control import check as check_cancel
from designer.core.errors import DesignerError

#: Rounds of plan, design and verify before the designer gives up (each round's rooms are cached).
MAX_ROUNDS = 12
#: What a room's seed moves by each time its design runs out of time: a search stuck from one seed
#: is often quick from another.
RETRY_SEED = 100_000
#: The least seconds a room's design is given.
ROOM_SECONDS = 2.0


def design(
    request: CaveRequest,
    *,
    seed: int = 0,
    time_limit: float = 60.0,
    workers: int | None = None,
    executor=None,
    on_progress: OnProgress = no_progress,
    cancel: CancelToken | None = None,
) -> CaveDesign:
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
        raise DesignerError(
            "on dask each room is designed by one worker process: leave --workers out"
        )
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
        clock = Budget(time_limit)  # the whole cave's, every design of it included
        heading = [""]  # which design of the cave runs, once there is more than one

        def shown(update: Update) -> None:
            label = update.label and heading[0] + update.label
            on_progress(Update(update.done, update.total, label))

        def once(seed: int) -> CaveDesign:
            try:
                return _design(
                    request, seed, time_limit, workers, executor, shown, net, held, clock
                )
            except Cancelled:
                if cancel is not None and cancel.is_set() or not net.is_set():
                    raise
                raise CaveFailed("time limit", _out_of_time(request, time_limit, held)) from None

        if request.difficulty is None:
            return once(seed)

        def label(text: str) -> None:
            heading[0] = text + "; "

        return felt.designed(request.difficulty, request.aim, seed, once, label, clock.seconds)
    finally:
        if timer is not None:
            timer.cancel()
        if forked is not None:
            forked.close()


def _out_of_time(request: CaveRequest, time_limit: float, held: list[str]) -> str:
    return f"time limit reached: no cave met min stops {request.min_stops} in {time_limit:g} s" + (
        f" ({held[-1]})" if held else ""
    )


#: The share of the time limit a round's rooms get as their budgets of work, all together (each
#: at least ``ROOM_SECONDS``): a figure of the request, never of the time left, so that a seed
#: designs the same rooms at any load.
ROUND_SHARE = 0.5


def _design(
    request: CaveRequest,
    seed: int,
    time_limit: float,
    workers: int,
    executor,
    on_progress: OnProgress,
    cancel: CancelToken,
    held_back: list[str],
    clock: Budget,
) -> CaveDesign:
    from designer.search.job import DesignJob
    from designer.search.result import DesignFailed

    # ``clock``: the cave's, every design of it (each room's budget is of work: ``design_room``)
    cave = request.cave
    free = [room.name for room in cave.rooms if room.free]
    graph = planning.edges(cave, set(free), measured_rooms(cave))
    passages, most, likely = passage_bounds(cave, graph)
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
            raise DesignerError(
                f"route {name}:{a}:{b} is no passage of a free room (from a door one enters by "
                f"to a door one leaves by)"
            )
        for p in hits:
            low[p] = max(low[p], floor)
            if ceiling is not None:
                caps[p] = min(caps.get(p, ceiling), ceiling)
    for p, top in caps.items():
        if top < low[p]:
            raise DesignerError(
                f"room {p.room}'s route {p.a}:{p.b} is asked for at least {low[p]} and at most "
                f"{top} stops (--room and --route bands that do not meet)"
            )
        most[p] = min(most[p], top)
        likely[p] = min(likely[p], most[p])
    for p in passages:
        if low[p] > most[p]:
            raise CaveFailed(
                "infeasible",
                f"proven infeasible: room {p.room}'s route {p.a}:{p.b} holds at most "
                f"{most[p]} stops, below its floor {low[p]}",
            )
    if request.max_stops is not None:  # every passage at its floor: no way through is shorter
        least = planning.shortest(cave, graph, lambda e: low[e.passage] if e.designed else e.weight)
        if least is not None and least[0] > request.max_stops:
            rooms = ", ".join(dict.fromkeys(edge.passage.room for edge in least[1]))
            raise CaveFailed(
                "infeasible",
                f"proven infeasible: the shortest way, through rooms {rooms}, makes at "
                f"least {least[0]} stops (a move or more a passage), above --max-stops "
                f"{request.max_stops}",
            )
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
            raise CaveFailed(
                "time limit",
                f"time limit reached: no cave met min stops {request.min_stops} in "
                f"{time_limit:g} s ({rounds} rounds of plan, rooms and check"
                f"{''.join('; ' + why for why in held_back)})",
            )
        rounds += 1
        try:
            bands = planning.solve(
                cave, graph, low, most, request.min_stops, min(10.0, left), seed, likely
            )
        except planning.Unsettled as exc:
            raise CaveFailed("time limit", f"time limit reached: {exc}") from None
        except planning.Infeasible as exc:
            reason = "infeasible" if rounds == 1 else "time limit"
            head = (
                "proven infeasible"
                if rounds == 1
                else "time limit reached: the rooms could not hold their bands"
            )
            raise CaveFailed(reason, f"{head}: {exc}, below {request.min_stops}") from None
        ceiling = None
        if request.max_stops is not None:
            on_way = max(1, len(set(planning.way_rooms(cave, graph, bands))))
            ceiling = (request.max_stops - request.min_stops) // on_way
        carried = keys_carried(cave, graph, bands)
        jobs, order, keys = [], [], {}
        for k, name in enumerate(free):
            mine = {p: s for p, s in bands.items() if p.room == name}
            carry = carried.get(name)
            keys[name] = key = (
                name,
                tuple(sorted((str(p), s) for p, s in mine.items())),
                carry,
                redesign,
            )
            if key in made:
                continue
            room_request = request_for_room(
                cave,
                name,
                mine,
                None if ceiling is None else max(mine.values(), default=1) + ceiling,
                caps,
                carry=carry,
            )
            order.append((name, key, mine))
            jobs.append(
                DesignJob(
                    room_request,
                    seed=seed + k + 1000 * redesign + RETRY_SEED * tries.get(name, 0),
                    time_limit=0.0,
                    workers=workers,
                )
            )
        # of work: the request's figure
        share = max(ROOM_SECONDS, ROUND_SHARE * time_limit / max(1, len(jobs)))
        jobs = [job.but(time_limit=share) for job in jobs]
        steps.label(f"round {rounds}: designing {len(jobs)} room{'s' if len(jobs) != 1 else ''}")
        results: dict = {}
        if executor is not None and len(jobs) > 1:

            def designed(job, result, results=results) -> None:
                results[job.seed] = result
                steps.step()

            executor.run(design_room, jobs, designed)
        else:
            for job in jobs:
                results[job.seed] = design_room(job.but(cancel=cancel))
                check_cancel(cancel)
                steps.step()
        failed_rooms = []
        for (name, key, mine), job in zip(order, jobs):
            result = results[job.seed]
            if isinstance(result, DesignFailed):
                if result.reason == "infeasible" and all(s <= low[p] for p, s in mine.items()):
                    raise CaveFailed(
                        "infeasible",
                        f"proven infeasible: room {name} cannot hold its floors ({result})",
                    )
                failed_rooms.append(f"room {name}: {_short(result)}")
                if result.reason != "infeasible":
                    tries[name] = tries.get(name, 0) + 1
                for (
                    p,
                    s,
                ) in mine.items():  # ask less of it: proven, below the floor; else what was found
                    if s > low[p]:
                        found = stops_reached(result, p)
                        cut = s - 1 if result.reason == "infeasible" else s - max(1, s // 10)
                        most[p] = max(
                            low[p],
                            min(most[p], cut, found if found is not None and found < s else cut),
                        )
                        likely[p] = min(likely[p], most[p])
            else:
                made[key] = result.room
        if failed_rooms:
            held("; ".join(failed_rooms))
            continue
        filled = cave.filled({name: made[keys[name]] for name in free})
        report = cave_analysis.analyze(filled)
        why = cave_analysis.failure(
            filled, request.min_stops, request.max_stops, report
        ) or outside_caps(filled, low, caps)
        if why is None:
            record = {
                "method": "cave",
                "seed": seed,
                "time_limit": time_limit,
                "workers": workers,
                "seconds": round(clock.seconds(), 3),
                "rounds": rounds,
                "bands": {str(p): s for p, s in sorted(bands.items(), key=lambda x: str(x[0]))},
                "request": request.to_json(),
            }
            return CaveDesign(filled, report, record)
        held(f"the cave filled in round {rounds} failed its check: {why}")
        if (
            report.way is not None
            and report.strong
            and report.min_stops is not None
            and report.min_stops < request.min_stops
        ):
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
            return ("out of its work: " if head.startswith("time") else "") + text[len(head) :]
    return text
