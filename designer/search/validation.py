"""``validate``: the requests that make no sense, refused before any work (``DesignerError``,
one line, exit status 2 on the command line): sizes, counts, pins, snow, templates, and a
room's doors and routes. What is valid but cannot be met is the searches' to find out
(``designer.analysis.bounds`` first)."""

from __future__ import annotations

from designer.core.errors import RequestError
from designer.core.limits import MAX_COUNT, MAX_DESIGN_SIDE, whole
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.core.room_checks import shut_in
from designer.core.terrain import ICE


def validate(request: LayoutRequest) -> None:
    """Refuse requests that make no sense (DesignerError, exit status 2 on the command line)."""
    h, w = request.height, request.width
    if h < 1 or w < 1 or h * w < 2:
        raise RequestError(f"size {h}x{w} has no room for a start and a goal")
    if request.frame and (h < 3 or w < 3):
        raise RequestError(
            f"size {h}x{w} is too small for a frame: at least 3x3 (or use {{no_frame}})"
        )
    if h > MAX_DESIGN_SIDE or w > MAX_DESIGN_SIDE:
        raise RequestError(
            f"size {h}x{w} is too large to design: at most {MAX_DESIGN_SIDE} per side"
        )
    if request.min_stops < 1:
        raise RequestError("{min_stops} must be at least 1")
    if request.min_choices is not None and request.min_choices < 0:
        raise RequestError("{min_choices} must not be negative")
    if request.max_stops is not None and request.max_stops < request.min_stops:
        raise RequestError(
            f"{{max_stops}} {request.max_stops} is below {{min_stops}} {request.min_stops}"
        )
    if request.max_rocks is not None and request.max_rocks < 0:
        raise RequestError("{max_rocks} must not be negative")
    if request.snow < 0:
        raise RequestError("{snow} must not be negative")
    for option, value in (
        ("{min_stops}", request.min_stops),
        ("{max_stops}", request.max_stops),
        ("{min_choices}", request.min_choices),
        ("{max_rocks}", request.max_rocks),
        ("{snow}", request.snow),
    ):
        if value is not None:
            # the bound a request read back from a file keeps too
            whole(value, option, 0, MAX_COUNT)
    if request.difficulty is not None and not 1 <= request.difficulty <= 10:
        raise RequestError(f"a predicted difficulty is from 1 to 10, not {request.difficulty:g}")
    _validate_items(request)
    request_kind(request).check(request, validate)
    if request.placed_snow() < 0:
        raise RequestError(
            f"the template draws {request.fixed_snow()} snow tiles, more than {{snow}} "
            f"{request.snow}"
        )
    free = set(request.free_cells())
    ends_on_free = sum(
        all(cell in free for cell in cells)
        for cells in (request.start_cells(), request.goal_cells())
    )
    if request.placed_snow() > 0 and request.placed_snow() > len(free) - ends_on_free:
        raise RequestError(
            f"{{snow}} {request.snow} does not fit: {h}x{w} has {len(free)} free "
            f"cell{'s' * (len(free) != 1)}, and the "
            f"start and goal take {ends_on_free} of them"
        )
    for name, cell in (("start", request.start), ("goal", request.goal)):
        if cell is None:
            continue
        r, c = cell
        if not (0 <= r < h and 0 <= c < w):
            raise RequestError(f"{{{name}}} {r},{c} lies outside the {h}x{w} grid")
        if request.frame and request.is_corner(cell):
            raise RequestError(
                f"{{{name}}} {r},{c} is a corner of the frame: nothing can move there or from there"
            )
    if request.template is not None:
        for name, cell in (("start", request.start), ("goal", request.goal)):
            if cell is not None and request.fixed_tile(cell) not in (None, ICE):
                raise RequestError(
                    f"{{{name}}} {cell[0]},{cell[1]} is a drawn rock or snow tile of the template"
                )
    if request.start is not None and request.start == request.goal:
        raise RequestError(
            f"{{start}} and {{goal}} are the same cell {request.start[0]},{request.start[1]}"
        )
    vault = (
        request.start_cells() == request.goal_cells()
        and len(request.start_cells()) == 1
        and request.pinned_items
    )
    if len(set(request.start_cells()) | set(request.goal_cells())) < 2 and not vault:
        raise RequestError("no two cells (free or ice) are left for the start and the goal")


def _validate_coins(request: LayoutRequest) -> None:
    """Refuse coins that cannot be asked: negative, more than a level holds, in a room, or a
    full-clear band without coins or upside down."""
    from designer.core.limits import MAX_COINS

    low, high = request.full_clear_min, request.full_clear_max
    if request.coins < 0:
        raise RequestError("{coins} must not be negative")
    if (request.coins or request.pinned_coins) and not request_kind(request).takes_coins:
        raise RequestError("{coins}: a room with several doors is not designed with coins yet")
    drawn = len(request.pinned_coins)
    if request.coins + drawn > MAX_COINS:
        raise RequestError(
            f"{{coins}} {request.coins}"
            + (f" and {drawn} drawn in the template" if drawn else "")
            + f": a level holds at most {MAX_COINS}"
        )
    if (low is not None or high is not None) and not (request.coins or request.pinned_coins):
        raise RequestError(
            "{full_clear} is the band of the full clear, which takes the coins: it needs {coins}"
        )
    if low is not None and high is not None and low > high:
        raise RequestError(f"{{full_clear}} {low}..{high}: the band is upside down")
    if request.coins and request.coins + request.items + request.placed_snow() + 2 > len(
        request.free_cells()
    ):
        free = len(request.free_cells())
        raise RequestError(
            f"{{coins}} {request.coins} does not fit: {free} free cell{'s' * (free != 1)}"
        )


def _validate_items(request: LayoutRequest) -> None:
    """Refuse items that cannot be placed: more than a level holds, more than the free cells, or
    in a room with several doors (not designed yet)."""
    from designer.core.limits import MAX_ITEMS

    if request.items < 0:
        raise RequestError("{items} must not be negative")
    if request.teleports < 0:
        raise RequestError("{teleports} must not be negative")
    _validate_coins(request)
    for cell in (request.start, request.goal):
        if cell is not None and cell in request.portal_cells:
            raise RequestError(
                f"{{start}} or {{goal}} {cell[0]},{cell[1]} is a portal or target the template "
                "draws"
            )
    if request.teleports and not request_kind(request).takes_teleports:
        raise RequestError(
            "{teleports}: a room with several doors is not designed with portals yet"
        )
    if (
        request.teleports
        and len(request.free_cells())
        < 2 * request.teleports + request.items + request.placed_snow() + 2
    ):
        free = len(request.free_cells())
        raise RequestError(
            f"{{teleports}} {request.teleports} does not fit: {free} free cell{'s' * (free != 1)} "
            "for the portals, the items, the snow and the ends"
        )
    if request.item_count > MAX_ITEMS:
        pinned = (
            f" ({len(request.pinned_items)} drawn in the template)" if request.pinned_items else ""
        )
        raise RequestError(f"{request.item_count} items{pinned}: a level holds at most {MAX_ITEMS}")
    if not request.item_count:
        return
    free = len(request.free_cells())
    if request.items + request.placed_snow() + 2 > free:
        raise RequestError(
            f"{{items}} {request.items} does not fit: {request.height}x{request.width} has "
            f"{free} free "
            "cells for the items, the snow and the ends"
        )
    for cell in request.pinned_items:
        if cell in (request.start, request.goal):
            raise RequestError(
                f"{{start}} or {{goal}} {cell[0]},{cell[1]} is an item the template draws"
            )
        if shut_in(request, cell):
            raise RequestError(
                f"the item at {cell[0]},{cell[1]} is walled in on every side: nothing can reach it"
            )
