"""What ``solve`` prints of each kind of puzzle (``SOLVED``, by its kind's name): a level's
solution, a room's routes, a cave's way; and of a full clear (its line, and its status 1 when
none was found in its limits)."""

from __future__ import annotations

import json

from designer.cli.shell import echo
from designer.core.errors import RequestNotMet


def full_words(found, full, route: str = "") -> str:
    """The full clear's line (``full clear (3 coins): 12 moves (proven optimal)``) of a level, a
    room or a cave, its moves below."""
    count = len(found.coins)
    head = f"route {route} full clear" if route else "full clear"
    return f"{head} ({count} coin{'s' * (count > 1)}): {full.words()}" + (
        f"\n{full.moves}" if full.moves else ""
    )


def full_answered(*fulls) -> None:
    """``solve``'s status 1 when a full clear's search could not answer within its limits (the
    exit's solution printed first). ``analyze`` reports it among its figures, status 0, as it
    reports an unsolvable level."""
    for full in fulls:
        if full is not None and full.moves is None and not full.proven:
            least = (
                f" (no full clear has fewer than {full.lower_bound} moves)"
                if full.lower_bound
                else ""
            )
            raise RequestNotMet(f"full clear: none found, {full.how}{least}")


def print_level(solved, as_json: bool) -> None:
    """A level's solution (and the order its items are taken in); with coins, its full clear."""
    solution = solved.solution
    full = solved.full
    if as_json:
        payload = {"solvable": True, **solution.to_dict()} if solution else {"solvable": False}
        if full is not None:
            payload["full_clear"] = full.to_dict()
        echo(json.dumps(payload))
    elif solution:
        echo(f"{solution.moves}\nstops: {solution.stops}  distance: {solution.distance}")
        if solution.taken:
            echo(
                "items: "
                + ", ".join(f"{k + 1} at move {solution.taken[k]}" for k in solution.order())
            )
    if full is not None and not as_json:
        echo(full_words(solved.level, full))
    full_answered(full)
    if solution is None:
        raise RequestNotMet("unsolvable: the goal cannot be reached from the start")


def print_room(solved, as_json: bool) -> None:
    from designer.core.room import lost_words

    """Every route's solution: one route as a level's, several one line each; with coins, each
    route's full clear."""
    if as_json:
        payload = {"routes": [one.to_dict() for one in solved.routes]}
        if solved.full is not None:
            for one in payload["routes"]:
                one["full_clear"] = solved.full[one["route"]].to_dict()
        echo(json.dumps(payload))
    elif len(solved.routes) == 1 and solved.routes[0].solution:
        s = solved.routes[0].solution
        echo(f"{s.moves}\nstops: {s.stops}  distance: {s.distance}")
    else:
        for one in solved.routes:
            s = one.solution
            echo(
                f"route {one.name}: {s.moves}  stops: {s.stops}  distance: {s.distance}"
                if s
                else f"route {one.name}: unsolvable"
            )
    if solved.full is not None and not as_json:
        for name, full in solved.full.items():
            echo(full_words(solved.room, full, name if len(solved.full) > 1 else ""))
    full_answered(*(solved.full or {}).values())
    lost = [one for one in solved.routes if one.solution is None]
    if lost:
        start, goal = lost[0].route
        raise RequestNotMet(
            f"unsolvable: route {lost[0].name}: {lost_words(start, goal)}"
            + (
                f" (and {len(lost) - 1} more route{'s' if len(lost) > 2 else ''})"
                if len(lost) > 1
                else ""
            )
        )


def print_cave(solved, as_json: bool) -> None:
    """The way through a cave, room by room, and each key's pickup."""
    from designer.export.report import way_lines

    way = solved.way
    if as_json:
        payload = {"solvable": True, **way.to_dict()} if way else {"solvable": False}
        if solved.full is not None:
            payload["full_clear"] = solved.full.to_dict()
        echo(json.dumps(payload))
    elif way:
        echo("\n".join(way_lines(way)))
    if solved.full is not None and not as_json:
        echo(full_words(solved.cave, solved.full))
    full_answered(solved.full)
    if way is None:
        raise RequestNotMet("unsolvable: the exit cannot be reached from the entrance")


#: Each kind's printer, by its name (``designer.ops.kinds``).
SOLVED = {"level": print_level, "room": print_room, "cave": print_cave}
