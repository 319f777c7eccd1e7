"""What a cave is asked when the user does not say: the min stops of a cave drawn from nothing
(``default_min_stops``: more of more rooms), and what each passage of a cave likely holds, which
the plan (``designer.caves.plan``) spreads its bands over (``passage_bounds``). The band of
predicted difficulty a cave from nothing aims at is ``designer.caves.felt.aimed``."""

from __future__ import annotations

from designer.caves import plan as planning
from designer.caves.cave_request import DEFAULT_MIN_STOPS
from designer.caves.room_jobs import measured_rooms, passage_capacity

#: What a passage likely holds, as a share of the cells the player may rest on in its room: the
#: longest levels known hold about half their inside (7x7: 13 of 25; 8x8: 21 of 36). The plan
#: spreads its bands over this headroom; the cheap bounds alone cap it.
LIKELY_SHARE = 0.45
#: The min stops a cave drawn from nothing asks when the user names none: ``STOPS_A_ROOM`` for
#: each of its rooms, so that a cave of more rooms asks more of the player rather than spreading
#: the same stops thinner (an 8-room cave asked 30 gave rooms of 4 stops); at most ``WAY_SHARE``
#: of what its way's rooms likely hold, so that small rooms are not asked past what they hold
#: (8 rooms of 7x7 and 3 keys asked 80 held 74 to 76, asked 0.6 of it 63); and
#: ``DEFAULT_MIN_STOPS`` at least, a given cave's default and every cave's before issue 63,
#: which a cave of 2 or 3 rooms keeps.
STOPS_A_ROOM = 10
WAY_SHARE = 0.5


def likely_holds(most: int) -> int:
    """What a passage whose route the cheap bounds cap at ``most`` stops likely holds."""
    return max(1, round(LIKELY_SHARE * (most + 1)))


def passage_bounds(cave, graph: list) -> tuple[list, dict, dict]:
    """The designed passages of ``graph`` (in order), the most stops each holds by the cheap
    bounds, and what each likely holds (``likely_holds``)."""
    passages = sorted({edge.passage for edge in graph if edge.designed}, key=str)
    most = {p: passage_capacity(cave, p) for p in passages}
    return passages, most, {p: likely_holds(most[p]) for p in passages}


def default_min_stops(cave) -> int:
    """The min stops asked of a cave drawn from nothing when none is named (see
    ``STOPS_A_ROOM``): ``STOPS_A_ROOM`` times its rooms, at most ``WAY_SHARE`` of the shortest
    way with every passage at what it likely holds, ``DEFAULT_MIN_STOPS`` at least.

    >>> from designer.caves import grammar
    >>> [default_min_stops(grammar.draw(n, 0, (12, 12), seed=1)) for n in (2, 3, 5, 8)]
    [30, 30, 50, 80]
    >>> default_min_stops(grammar.draw(8, 0, (7, 7), seed=2))
    37
    """
    free = {room.name for room in cave.rooms if room.free}
    graph = planning.edges(cave, free, measured_rooms(cave))
    _, _, likely = passage_bounds(cave, graph)
    way = planning.shortest(cave, graph, lambda e: likely[e.passage] if e.designed else e.weight)
    held = int(WAY_SHARE * way[0]) if way is not None else DEFAULT_MIN_STOPS
    return max(DEFAULT_MIN_STOPS, min(STOPS_A_ROOM * len(cave.rooms), held))
