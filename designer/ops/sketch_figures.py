"""The live figures of a sketch, as the studio shows them beside the board while it is drawn: each
route's min stops, class and options (``figures``), and what a fill could still make of it
(``fill_bounds``)."""

from __future__ import annotations

from designer.core.level import Level
from designer.core.request_kinds import request_kind


def figures(rows: list[str], player=None) -> dict:
    """The live figures of a grid as a sketch holds it (``designer studio`` shows them after every
    edit): rows of canonical ASCII, where ``?`` (a free cell, still the solver's) counts as ice,
    with ``S`` and ``G`` or doors ``1``-``9``, and items ``*``. One entry per route (a level: S to G):
    solvable, min stops, class, reversible, options, rail stops, the solution's path, the trap cells
    (with items: the cells of the trap states), the moves left to the goal from each resting cell
    ([row, col, moves], before any item is taken), its ends, its items and what each adds, its
    predicted difficulty (``designer.analysis.player``, for ``player``: a member of the family,
    default the simple one; null when unsolvable), and its
    star thresholds (``designer.analysis.stars``: what the studio's play mode awards); with free
    cells, ``fill``: what a fill can still make of the route (``fill_bounds``). A grid with no two
    ends yet has no route. LevelError (one line) for rows that are no grid.

    >>> found = figures(["#G#", "#?#", "#S#"])
    >>> [(one["route"], one["class"], one["min_stops"], one["path"]) for one in found["routes"]]
    [('S:G', 'strong', 1, [[2, 1], [0, 1]])]
    """
    from designer.analysis.graph import analyze as analyze_level
    from designer.analysis.routes import analyze_routes
    from designer.analysis.stars import Stars
    from designer.core.errors import LevelError
    from designer.core.room import Room
    from designer.core.text_forms import CANONICAL, scan_rows

    if not rows or not all(isinstance(row, str) for row in rows):
        raise LevelError("the grid must be a list of rows of text")
    plain = [row.replace("?", ".") for row in rows]
    items: list = []
    coins: list = []
    # its errors are one line each
    terrain, starts, goals, doors = scan_rows(plain, CANONICAL, items, coins)
    height, width = terrain.shape
    if starts and goals and not doors:
        level = (
            Level(terrain, starts[0], goals[0], items=tuple(items), coins=tuple(coins))
            if len(starts) == len(goals) == 1
            else None
        )
        found = [("S:G", level, analyze_level(level))] if level is not None else []
    elif (
        len(doors) >= 2
        and not (starts or goals)
        and all(len(cells) == 1 for cells in doors.values())
    ):
        room = Room(
            terrain,
            tuple((number, cells[0]) for number, cells in doors.items()),
            items=tuple(items),
            coins=tuple(coins),
        )
        found = [(one.name, one.level, one.analysis) for one in analyze_routes(room).routes]
    else:
        found = []
    routes = []
    for name, level, analysis in found:
        routes.append(
            {
                "route": name,
                "solvable": analysis.min_stops is not None,
                "min_stops": analysis.min_stops,
                "class": analysis.solvability,
                "reversible": analysis.reversible,
                "options": analysis.options,
                "rail_stops": analysis.rail_stops,
                "path": [list(cell) for cell in analysis.solution.path]
                if analysis.solution
                else [],
                "traps": sorted({tuple(cell[:2]) for cell in analysis.trap_cells}),
                "moves_left": sorted(
                    [r, c, left]
                    for (r, c, *taken), left in analysis.remaining.items()
                    if not any(taken)
                ),
                "start": list(level.start),
                "goal": list(level.goal),
                "items": [{"cell": list(item.cell), "adds": item.adds} for item in analysis.items]
                if analysis.solution
                else [{"cell": list(cell), "adds": None} for cell in level.items],
                "stars": Stars.default(analysis.min_stops).to_json()
                if analysis.solution and analysis.min_stops is not None
                else None,
                "difficulty": _difficulty(level, player) if analysis.solution else None,
            }
        )
    free = sum(row.count("?") for row in rows)
    # what a fill can still make of each route, not a judgement of free cells as ice
    if free and routes:
        reach = fill_bounds(rows)
        for route in routes:
            route["fill"] = reach.get(route["route"])
    ends = "doors" if doors else "ends"
    return {
        "height": height,
        "width": width,
        "routes": routes,
        "ends": ends if found else None,
        "free": free,
        "doors": sorted(int(d) for d in doors) if doors else [],
        "note": None if found else _why_no_route(starts, goals, doors),
    }


def _difficulty(level: Level, player=None) -> float | None:
    """The model's predicted difficulty of a route (``designer.analysis.player``), for the live figures."""
    from designer.analysis.player import DEFAULT, play
    from designer.core.errors import LevelError

    try:
        return play(level, player or DEFAULT).difficulty
    except LevelError:
        return None


def fill_bounds(rows: list[str]) -> dict:
    """What a fill of a sketch's free cells (``?``) can still make of each route, by the cheap
    bounds ``make`` checks before any search (``designer.analysis.bounds``): {route: {"at_most":
    the most min stops (the cells a solution may rest on, less one), "parity": "odd" or "even"
    when min stops can only be that, else None}}; {} for a sketch ``make`` would refuse.

    >>> fill_bounds(["##G##", "#???#", "#???#", "##S##"])
    {'S:G': {'at_most': 7, 'parity': 'odd'}}
    """
    from dataclasses import replace

    from designer.analysis import bounds
    from designer.core.errors import DesignerError
    from designer.ops.asks import request_of

    try:
        request = request_of({"template": tuple(rows), "min_stops": 1})
    except DesignerError:
        return {}
    named = request_kind(request).route_requests(request)
    found = {}
    for name, one in named:  # the sketch's rocks are drawn: the parity bound takes ends beside them
        odd_only = bounds.parity(replace(one, min_stops=2, max_stops=2), drawn=True) is not None
        even_only = bounds.parity(replace(one, min_stops=1, max_stops=1), drawn=True) is not None
        found[name] = {
            "at_most": bounds.most_stops(one),
            "parity": "odd" if odd_only else "even" if even_only else None,
        }
    return found


def _why_no_route(starts, goals, doors) -> str:
    if doors and (starts or goals):
        return "S and G, or doors 1-9: not both"
    if any(len(cells) > 1 for cells in doors.values()):
        return "two doors of one number"
    if len(starts) > 1 or len(goals) > 1:
        return "one S and one G"
    return "paint a start and a goal, or two doors or more"
