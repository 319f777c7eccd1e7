"""The checks of a room's design request (``check_room``): its doors, its routes, and each
route's own request; and whether a cell is shut in by rock the designer cannot move (``shut_in``)."""

from __future__ import annotations

from collections.abc import Callable

from designer.core.errors import DesignerError, RequestError, literal
from designer.core.request import LayoutRequest
from designer.core.terrain import ROCK


def shut_in(request: LayoutRequest, cell: tuple[int, int]) -> bool:
    """Whether every side of ``cell`` is the grid's edge or a rock the designer cannot move (a
    frame's corner, a template's walled nook): nothing can move onto it, or off it."""
    r, c = cell
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        near = (r + dr, c + dc)
        if (
            0 <= near[0] < request.height
            and 0 <= near[1] < request.width
            and request.fixed_tile(near) != ROCK
        ):
            return False
    return True


def check_room(request: LayoutRequest, validate: Callable[[LayoutRequest], None]) -> None:
    """Refuse a room request that makes no sense: its doors (2 to 9, each on its own cell inside
    the grid, on ice or a free cell, never a corner of the frame), its routes (between two of
    its doors, each asked once, with a band that holds a number), and what the room cannot
    take; then each route's own request as a level's (``validate``: the design's own checks,
    ``designer.search.validation.validate``)."""
    from designer.core.room import MAX_DOORS

    h, w = request.height, request.width
    for name, value in (
        ("{start}", request.start),
        ("{goal}", request.goal),
        ("{tidy}", request.tidy or None),
    ):
        if value is not None:
            raise RequestError(
                f"{name} does not go with doors: a room's routes run between its doors"
            )
    if request.doors and any(ch.isdigit() for row in request.template or () for ch in row):
        raise RequestError(
            "{doors} does not go with a template that draws its doors (1-9): keep one"
        )
    doors = request.room_doors
    numbers = [number for number, _ in doors]
    if len(doors) > MAX_DOORS or not all(1 <= n <= MAX_DOORS for n in numbers):
        raise RequestError(f"a room has at most {MAX_DOORS} doors, numbered 1 to {MAX_DOORS}")
    if len(doors) < 2 and not (doors and request.pinned_items):
        raise RequestError(
            "a room needs two doors (1-9), or one door and the items it holds drawn (*): a vault"
        )
    if len(set(numbers)) != len(numbers):
        raise RequestError(f"two doors numbered {next(n for n in numbers if numbers.count(n) > 1)}")
    seen: dict = {}
    for number, (r, c) in doors:
        if not (0 <= r < h and 0 <= c < w):
            raise RequestError(f"door {number} ({r},{c}) lies outside the {h}x{w} grid")
        if request.frame and request.template is None and request.is_corner((r, c)):
            raise RequestError(
                f"door {number} ({r},{c}) is a corner of the frame: nothing can move there or from there"
            )
        if request.template is not None and request.template[r][c] == "_":
            raise RequestError(
                f"door {number} ({r},{c}) is a drawn snow tile of the template: a door is ice"
            )
        if shut_in(request, (r, c)):
            raise RequestError(
                f"door {number} ({r},{c}) is walled in on every side: nothing can move there or "
                "from there"
            )
        if (r, c) in seen:
            raise RequestError(f"doors {seen[(r, c)]} and {number} are the same cell ({r},{c})")
        seen[(r, c)] = number
    asked = [(band.a, band.b) for band in request.routes or ()]
    for band in request.routes or ():
        if band.a == band.b and len(doors) > 1:
            raise RequestError(
                f"route {band.a}:{band.b} runs from a door to itself (only a vault's does)"
            )
        for number in (band.a, band.b):
            if number not in numbers:
                raise RequestError(
                    f"route {band.a}:{band.b} names door {number}, but the room's doors are "
                    f"{', '.join(map(str, numbers))}"
                )
        if asked.count((band.a, band.b)) > 1:
            raise RequestError(f"route {band.a}:{band.b} is asked for twice")
    for band in request.route_bands:
        try:
            validate(request.route_request(band))
        except DesignerError as exc:
            said = exc if isinstance(exc, RequestError) else RequestError(literal(str(exc)))
            raise said.within(f"route {band.a}:{band.b}: ") from None
