"""Cheap proofs, run before any search: a request that no level can meet is refused at once.

Each bound is a small theorem about the rules (``docs/spec.md``), stated with its argument
beside the function that applies it. A bound only ever proves infeasibility; it never rejects a
request some level could meet. ``infeasible(request)`` returns the reason of the first bound
that applies, or None.

1. **Resting cells.** A fewest-moves solution never rests on the same cell twice (the moves
   between two visits could be cut out), so it makes at most (cells the player may rest on) - 1
   moves.
2. **Parity.** Without snow, a fewest-moves solution never makes two moves on the same axis in a
   row: after ``u`` the player rests under a rock or the edge, so ``u`` again is no move; and
   ``u`` then ``d`` from cell p ends where ``d`` alone from p ends (the slide down retraces the
   slide up, then goes on exactly as ``d`` from p would; the goal cannot lie on the retraced
   part, or ``u`` would have stopped on it), or back at p when ``d`` from p is no move. Either way
   the pair can be shortened, so the moves alternate between the two axes. With a frame, a start
   in the top or bottom frame row can only leave vertically (its neighbours in the row are frame
   rock) and one in the left or right column only horizontally; likewise a goal in the frame can
   only be entered along one axis. When both are fixed, every fewest-moves solution has odd
   length (same axis) or even length (different axes), and a band of min stops holding no number
   of that parity cannot be met. The default ends (start in the bottom row, goal in the top row)
   make min stops odd.
3. **Choices.** At each stop at most 3 moves besides the solution's are open, so the options
   along a solution are at most 3 x its stops.
"""

from __future__ import annotations

from dataclasses import replace

from designer.core.request import ROCK, Cell, LayoutRequest


def _resting_cells(request: LayoutRequest) -> int:
    """The cells the player may rest on: every cell not drawn as rock, and the ends' cells."""
    open_cells = [
        (r, c)
        for r in range(request.height)
        for c in range(request.width)
        if request.fixed_tile((r, c)) != ROCK
    ]
    return len(set(open_cells) | set(request.start_cells()) | set(request.goal_cells()))


def most_stops(request: LayoutRequest) -> int:
    """The most min stops bound 1 allows a level of ``request``: (cells the player may rest on) - 1."""
    return _resting_cells(request) - 1


def resting_cells(request: LayoutRequest) -> str | None:
    """Bound 1: at most (cells the player may rest on) - 1 moves."""
    cells = _resting_cells(request)
    if request.min_stops > cells - 1:
        return f"a solution rests on at most {cells} different cells, so it makes at most {cells - 1} moves"
    return None


def _frame_axis(request: LayoutRequest, cell: Cell) -> str | None:
    """The only axis ('vertical' or 'horizontal') a player can leave or enter ``cell`` by, when
    the cell lies in the frame (not a corner), else None."""
    r, c = cell
    if not request.frame or request.is_corner(cell) or not request.is_border(cell):
        return None
    return "vertical" if r in (0, request.height - 1) else "horizontal"


def _drawn_axis(request: LayoutRequest, cell: Cell) -> str | None:
    """The only axis a player can leave or enter ``cell`` by when the cells beside it on the
    other axis are drawn rock or off the grid (a door in a wall), else None."""

    def blocked(r: int, c: int) -> bool:
        return (
            not (0 <= r < request.height and 0 <= c < request.width)
            or request.fixed_tile((r, c)) == ROCK
        )

    r, c = cell
    across, along = blocked(r, c - 1) and blocked(r, c + 1), blocked(r - 1, c) and blocked(r + 1, c)
    if across == along:
        return None
    return "vertical" if across else "horizontal"


def _only_axis(
    request: LayoutRequest, cells: list[Cell], others: list[Cell], drawn: bool = False
) -> str | None:
    """The axis shared by every cell of ``cells`` (each in the frame), or None. A frame cell next
    to a possible cell of the other end could be left or entered along the frame row, so such a
    pairing gives no axis."""
    axes = {(_drawn_axis if drawn else _frame_axis)(request, cell) for cell in cells}
    if len(axes) != 1 or None in axes:
        return None
    other = set(others)
    for r, c in cells:
        if {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & other:
            return None
    return axes.pop()


def parity(request: LayoutRequest, drawn: bool = False) -> str | None:
    """Bound 2: without snow, with both ends in the frame, min stops has a fixed parity. With
    ``drawn`` (a room's route), ends in any drawn wall, the frame or a template's rocks."""
    if request.snow or not (request.frame or drawn):
        return None
    starts, goals = request.start_cells(), request.goal_cells()
    first = _only_axis(request, starts, goals, drawn)
    last = _only_axis(request, goals, starts, drawn)
    if first is None or last is None:
        return None
    odd = first == last
    high = request.max_stops if request.max_stops is not None else request.min_stops + 1
    if any((k % 2 == 1) == odd for k in range(request.min_stops, high + 1)):
        return None
    kind = "odd" if odd else "even"
    why = (
        f"the first move is {first} and the last {last}, and without snow a fewest-moves solution "
        f"alternates the two axes, so min stops is {kind}"
    )
    return why


def choices(request: LayoutRequest) -> str | None:
    """Bound 3: at each stop of the solution at most 3 moves besides the solution's are open (4
    directions), and there are at most min(max stops, resting cells - 1) stops."""
    if request.min_choices is None:
        return None
    stops = _resting_cells(request) - 1
    if request.max_stops is not None:
        stops = min(stops, request.max_stops)
    if request.min_choices > 3 * stops:
        return (
            f"a solution makes at most {stops} moves, with at most 3 other moves open at each stop, so at "
            f"most {3 * stops} options"
        )
    return None


BOUNDS = (resting_cells, parity, choices)


def least_possible(request: LayoutRequest, stops: int) -> int:
    """The least number of min stops from ``stops`` on that the parity bound allows for the
    request's ends: a floor the model need not prove twice.

    >>> least_possible(LayoutRequest(8, 8, min_stops=21), 20)  # ends in the bottom and top walls: odd
    21
    """
    while parity(replace(request, min_stops=stops, max_stops=stops)):
        stops += 1
    return stops


def infeasible(request: LayoutRequest) -> str | None:
    """The reason no level can meet ``request``, when one of the bounds shows it; else None. A
    room: the first route whose own request (``LayoutRequest.route_request``) a bound refuses,
    named, the parity bound taking doors in any drawn wall."""
    if request.is_room:
        for band in request.route_bands:
            sub = request.route_request(band)
            reason = resting_cells(sub) or parity(sub, drawn=True) or choices(sub)
            if reason:
                return f"route {band.a}:{band.b} cannot have min stops {band.band_text()}: {reason}"
        return None
    for bound in BOUNDS:
        reason = bound(request)
        if reason:
            return reason
    return None
