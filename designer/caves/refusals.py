"""What keeps a drawn cave from being designed, said before any search: a key that opens nothing or
lies behind its own lock (``check_keys``), and the rooms and links a fill could never make work
(``drawn_failing``, ``refusals``)."""

from __future__ import annotations

from designer.caves.cave import Cave
from designer.caves.room_jobs import request_for_room
from designer.core.errors import DesignerError


def check_keys(cave: Cave) -> None:
    """Refuse a cave whose key cannot matter: the exit must be out of reach without each key,
    every room taken as open between all its doors, and every other key held only once the room
    it lies in is reached (a key behind another key's lock is not held before that lock opens).
    One DesignerError line."""
    for key in cave.keys:
        if cave.exit in _reached_without(cave, key.name):
            raise DesignerError(
                f"key {key.name} cannot matter: the exit is reached without passing a link it "
                f"opens (lock a link that every way to the exit passes)"
            )


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
            why = (
                got.solvability
                if got.solvability != "strong"
                else None
                if got.reversible
                else "not reversible"
            )
            if why:
                found.append(
                    f"room {room.name} is drawn whole and its route {a}:{b} is {why}: no fill can "
                    f"change it (free some of its cells with ?)"
                )
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
                validate(request_for_room(cave, room.name, {}, None))
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
            for a, b in (
                ((link.a, link.b),) if link.one_way else ((link.a, link.b), (link.b, link.a))
            ):
                if (a in reached or a[0] in rooms) and b not in reached:
                    reached.add(b)
                    grown = True
                    if b[0] not in rooms:
                        rooms.add(b[0])
                        reached.update(doors[b[0]])
    return reached
