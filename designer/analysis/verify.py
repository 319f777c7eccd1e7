"""The one verifier: does a level meet a request?

Every level the project hands back has passed ``failure`` here: the designer's stages, the
classic generators, records, benchmarks and a checkpoint read back all call it. It recomputes
everything from the level with the networkx analysis (``designer.analysis.graph``), trusting
nothing a search reported.

>>> from designer.core.level import Level
>>> from designer.core.request import LayoutRequest
>>> level = Level.from_ascii("#G#\\n#.#\\n#S#")
>>> failure(LayoutRequest(height=3, width=3, min_stops=1), level) is None
True
>>> failure(LayoutRequest(height=3, width=3, min_stops=2), level)
'min stops 1 is below 2'
"""

from __future__ import annotations

import numpy as np

from designer.analysis.graph import Analysis, analyze
from designer.analysis.routes import RoomAnalysis, RouteAnalysis, analyze_routes
from designer.analysis.tidy import is_tidy
from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.room import Room
from designer.core.terrain import ROCK, SNOW


def failure(
    request: LayoutRequest, level: Level, report: Analysis | None = None, floor: int | None = None
) -> str | None:
    """Why ``level`` does not meet ``request``, in a few words; None when it does.

    ``report`` is the level's analysis when the caller has it already. ``floor`` is the stops
    a ``tidy`` level must keep: the request's K by default; a maximized level's own stops. A
    room request is checked route by route (``room_failure``)."""
    if request.is_room:
        return room_failure(request, level)
    if level.shape != (request.height, request.width):
        return f"the level is {level.height}x{level.width}, not {request.height}x{request.width}"
    report = report or analyze(level)
    if report.solvability != "strong":
        return f"the level is {report.solvability}, not strongly solvable"
    if not report.reversible:
        return "the level is not reversible"
    assert report.min_stops is not None  # strong: the goal is reached
    if report.min_stops < request.min_stops:
        return f"min stops {report.min_stops} is below {request.min_stops}"
    if request.max_stops is not None and report.min_stops > request.max_stops:
        return f"min stops {report.min_stops} is above {request.max_stops}"
    why = _items_failure(request, level, report) or _portals_failure(request, level, report)
    if why is not None:
        return why
    if request.min_choices is not None and report.options < request.min_choices:
        return f"{report.options} options along the solution, fewer than {request.min_choices}"
    if request.unique and report.solutions != 1:
        return f"{report.solutions} fewest-moves solutions, not exactly one"
    free = request.free_cells()
    rocks = sum(level.terrain[c] == ROCK for c in free)
    if request.max_rocks is not None and rocks > request.max_rocks:
        return f"{rocks} rocks placed, more than {request.max_rocks}"
    snow = sum(level.terrain[c] == SNOW for c in free)
    if snow != request.placed_snow():
        return f"{snow} snow tiles placed, not {request.placed_snow()}"
    if level.start not in request.start_cells():
        return f"the start {level.start} is not where the request allows it"
    if level.goal not in request.goal_cells():
        return f"the goal {level.goal} is not where the request allows it"
    fixed = np.array(request.fixed_grid(), np.int16)
    kept = fixed < 0
    kept[level.start] = kept[level.goal] = True  # an end opens its cell
    if not np.array_equal(level.terrain[~kept], fixed[~kept]):
        return "a frame or template tile was changed"
    if request.tidy and not is_tidy(request, level, request.min_stops if floor is None else floor):
        return "a placed tile is not needed (--tidy)"
    return None


def _portals_failure(request: LayoutRequest, level: Level, report: Analysis) -> str | None:
    """Why the portals and floors of ``level`` do not meet ``request``: the template's floors and
    pinned portals as drawn, and ``request.teleports`` pairs more on free cells, and nothing else,
    each mattering (without it, the level is shorter or cannot be finished)."""
    from designer.analysis.classify import min_stops
    from designer.core.floors import teleport_pairs

    pinned = tuple(request.portals or ())
    if not set(pinned) <= set(level.portals):
        return "a portal the template pins was moved"
    if level.floors != request.floor_values:
        return "the floors are not the template's"
    placed = tuple(portal for portal in level.portals if portal not in pinned)
    pairs = teleport_pairs(placed)
    if len(pairs) != request.teleports or len(placed) != 2 * len(pairs):
        return f"{len(placed)} portals placed, not {request.teleports} teleport pairs"
    if not set(cell for pair in pairs for cell in pair) <= set(request.free_cells()):
        return "a portal lies off the free cells"
    assert report.min_stops is not None  # asked of a strong level
    for a, b in pairs:
        without = level.replace(
            portals=tuple(p for p in level.portals if a not in p and b not in p)
        )
        found = min_stops(without)
        if 0 <= report.min_stops <= found:
            return f"the teleport pair {a}-{b} does not matter: without it the level takes {found} moves"
    return None


def _items_failure(request: LayoutRequest, level: Level, report: Analysis) -> str | None:
    """Why the items of ``level`` do not meet ``request``: how many, where (pinned ones where the
    template draws them, the others on free cells), and whether every one matters."""
    if len(level.items) != request.item_count:
        return f"{len(level.items)} items, not {request.item_count}"
    if not set(request.pinned_items) <= set(level.items):
        return "an item the template pins was moved"
    if not set(level.items) - set(request.pinned_items) <= set(request.free_cells()):
        return "an item lies off the free cells"
    for k, item in enumerate(report.items, 1):
        if item.adds <= 0:
            return f"item {k} ({item.cell[0]}, {item.cell[1]}) lies on the way: it adds no move"
    return None


def room_analysis(request: LayoutRequest, level: Level) -> RoomAnalysis:
    """Every route a room request asks for, analysed on ``level``'s terrain with the request's doors
    (and ``level``'s items on the routes that take them: ``RouteBand.items``)."""
    room = Room(level.terrain, request.room_doors, items=level.items)
    bands = request.route_bands
    if all(band.items for band in bands):
        return analyze_routes(room, [band.route for band in bands])
    routes = []
    for band in bands:
        route = room.route(*band.route)
        route = route if band.items else route.replace(items=())
        routes.append(RouteAnalysis(band.route, route, analyze(route)))
    return RoomAnalysis(room, tuple(routes))


def room_failure(
    request: LayoutRequest, level: Level, found: RoomAnalysis | None = None
) -> str | None:
    """Why a layout does not meet a room request: the first route that fails it, named ("route
    1:3: min stops 12 is below 15"), each route checked as the classic request it is
    (``LayoutRequest.route_request``); None when every route holds. ``found``: the layout's
    ``room_analysis`` when the caller has it already."""
    if level.shape != (request.height, request.width):
        return f"the level is {level.height}x{level.width}, not {request.height}x{request.width}"
    try:
        found = found or room_analysis(request, level)
    except LevelError as exc:  # a door on rock: the terrain is not the request's room
        return str(exc)
    for band, one in zip(request.route_bands, found.routes):
        why = failure(request.route_request(band), one.level, one.analysis)
        if why is not None:
            return f"route {band.a}:{band.b}: {why}"
    return None


def meets(
    request: LayoutRequest, level: Level, report: Analysis | None = None, floor: int | None = None
) -> bool:
    """Whether ``level`` meets ``request`` (see ``failure``)."""
    return failure(request, level, report, floor) is None
