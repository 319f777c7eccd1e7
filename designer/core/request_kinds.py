"""The kinds of design request, one table each: a level's (``LEVEL_REQUEST``: one start and one
goal, each pinned or free) and a room's (``ROOM_REQUEST``: numbered doors, a band for each
route, all of them met at once). ``request_kind`` gives a request's table; the searches ask it
what differs between the two, never whether a request is a room's.

A table holds what a kind can be designed with (its capabilities, as each of Simon Tatham's
puzzles says ``can_solve``), the number its searches count toward, how the compiled kernels take
its routes, its checks, and its words:

>>> from designer.core.request import LayoutRequest
>>> level = LayoutRequest(height=8, width=8, min_stops=9)
>>> request_kind(level).name, request_kind(level).target(level), request_kind(level).takes_coins
('level', 9, True)
>>> room = LayoutRequest(height=8, width=8, min_stops=9, doors=((1, (7, 3)), (2, (0, 4))))
>>> request_kind(room).name, request_kind(room).target(room), request_kind(room).takes_coins
('room', 9, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from designer.core.errors import RequestError
from designer.core.request import LayoutRequest
from designer.core.space import LayoutSpace


class RequestKind(Protocol):
    """What the searches ask of a kind of design request (``LEVEL_REQUEST``, ``ROOM_REQUEST``)."""

    #: "level" or "room".
    name: str
    #: What the kind is designed with: coins, teleports (``--teleports``); ends laid by the
    #: baseline methods, or posed by the model (``--method cpsat-ends``); a predicted difficulty
    #: as its target; choices counted with items; a maximum proven by the SAT loop; ``--tidy``; and
    #: the grid's symmetries (a room's routes and bands are its own, so none); a front of (min
    #: stops, options), one start and goal's (``designer pareto``).
    takes_coins: bool
    takes_teleports: bool
    lays_ends: bool
    poses_ends: bool
    predicts_difficulty: bool
    counts_item_choices: bool
    maximizes_by_proof: bool
    tidies: bool
    symmetric: bool
    fronts: bool

    def target(self, request: LayoutRequest) -> int:
        """What its searches count toward when meeting its band (a level's K; a room's sum of
        its routes' floors, ``LayoutRequest.room_target``)."""
        ...

    def floor(self, request: LayoutRequest) -> int:
        """The fewest stops any of its routes may have: a level's K, a room's lowest floor."""
        ...

    def route_count(self, request: LayoutRequest) -> int:
        """How many routes each layout is scored on."""
        ...

    def choice_objective(self, otherwise: str) -> str:
        """The objective that counts its choices: a room's options a stop over every route
        (``per_stop``), a level's ``otherwise``."""
        ...

    def route_requests(self, request: LayoutRequest) -> list[tuple[str, LayoutRequest]]:
        """Each route as a level's own request, named: a level's "S:G" (the request itself), a
        room's "A:B" (``LayoutRequest.route_request``)."""
        ...

    def shows_best_stops(self, maximizing: bool) -> bool:
        """Whether the best stops a search has seen is a number of stops worth showing (a room
        meeting its floors counts a sum over routes instead)."""
        ...

    def kernel_routes(self, space: LayoutSpace) -> list | None:
        """Its routes as the compiled kernels take them: (door a, door b, floor, ceiling or None),
        doors as flat indices, in the order of ``request.route_bands``; None for a level."""
        ...

    def conditions(self, request: LayoutRequest, objective: str, maximizing: bool) -> dict | None:
        """The annealing chain's conditions for ``objective`` (``designer.search.engines.anneal``)."""
        ...

    def met(self, scored: Any, meeting: bool) -> int:
        """What an item chain raises of a valid layout's figures (``Scored``) counting stops."""
        ...

    def check(self, request: LayoutRequest, validate: Callable[[LayoutRequest], None]) -> None:
        """Refuse, in one line, what the kind cannot be asked (``validate``: the design's checks,
        for a room's routes)."""
        ...

    def infeasible_text(self, request: LayoutRequest, other: str) -> str:
        """ "proven infeasible: ..." with its band, and ``other``: what the proof left out."""
        ...

    def proof_text(self, request: LayoutRequest, pairs: Callable[[], int]) -> str:
        """What a proof of the SAT loop covered (``pairs``: how many start and goal pairs)."""
        ...


def kernel_score(maximizing: bool, objective: str = "stops") -> str:
    """How the compiled kernels combine a room's routes into one score (``kernels.ROOM_SCORES``),
    the same score ``designer.search.engines.rooms.room_scores`` gives: the sum over routes of
    min(stops, floor) meeting the floors, the shortest route maximizing, else the fewest options
    (or options a stop)."""
    if objective == "stops":
        return "min" if maximizing else "sum"
    return objective


class LevelRequestKind:
    """A level's request: one start and one goal, each pinned or free."""

    name = "level"
    takes_coins = takes_teleports = lays_ends = poses_ends = True
    predicts_difficulty = counts_item_choices = maximizes_by_proof = tidies = symmetric = True
    fronts = True

    def target(self, request: LayoutRequest) -> int:
        return request.min_stops

    def floor(self, request: LayoutRequest) -> int:
        return request.min_stops

    def route_count(self, request: LayoutRequest) -> int:
        return 1

    def choice_objective(self, otherwise: str) -> str:
        return otherwise

    def route_requests(self, request: LayoutRequest) -> list[tuple[str, LayoutRequest]]:
        return [("S:G", request)]

    def shows_best_stops(self, maximizing: bool) -> bool:
        return True

    def kernel_routes(self, space: LayoutSpace) -> list | None:
        return None

    def conditions(self, request: LayoutRequest, objective: str, maximizing: bool) -> dict | None:
        """The request's K as a floor, ``unique``, and ``min_choices`` as a floor when the score
        counts stops or decisions (counting options, it is the target to climb to, not a wall);
        None for a plain min-stops chain."""
        if objective == "stops" and not request.asks_for_choices:
            return None
        return {
            "min_stops": request.min_stops,
            "min_options": request.min_choices if objective != "options" else None,
            "unique": request.unique,
            "objective": objective,
        }

    def met(self, scored: Any, meeting: bool) -> int:
        return scored.stops

    def check(self, request: LayoutRequest, validate: Callable[[LayoutRequest], None]) -> None:
        if request.routes is not None:
            raise RequestError(
                "{routes} names a room's doors (1-9): mark them with {doors} R,C or in the template"
            )

    def infeasible_text(self, request: LayoutRequest, other: str) -> str:
        band = f"min stops >= {request.min_stops}"
        if request.max_stops is not None:
            band = f"min stops in {request.min_stops}..{request.max_stops}"
        return (
            f"proven infeasible: no strong reversible {request.height}x{request.width} level "
            f"with {band} exists under these constraints{other}"
        )

    def proof_text(self, request: LayoutRequest, pairs: Callable[[], int]) -> str:
        count = pairs()
        if count == 1:
            return " (the SAT loop proved it for the one start and goal pair)"
        return f" (the SAT loop proved it for each of the {count} start and goal pairs)"


class RoomRequestKind:
    """A room's request: numbered doors, and a band for each route between two of them, all met
    by one layout (``designer.search.engines.rooms``)."""

    name = "room"
    takes_coins = takes_teleports = lays_ends = poses_ends = False
    predicts_difficulty = counts_item_choices = maximizes_by_proof = tidies = symmetric = False
    fronts = False

    def target(self, request: LayoutRequest) -> int:
        return request.room_target()

    def floor(self, request: LayoutRequest) -> int:
        return min(band.floor for band in request.route_bands)

    def route_count(self, request: LayoutRequest) -> int:
        return len(request.route_bands)

    def choice_objective(self, otherwise: str) -> str:
        return "per_stop"

    def route_requests(self, request: LayoutRequest) -> list[tuple[str, LayoutRequest]]:
        return [(f"{band.a}:{band.b}", request.route_request(band)) for band in request.route_bands]

    def shows_best_stops(self, maximizing: bool) -> bool:
        return maximizing

    def kernel_routes(self, space: LayoutSpace) -> list:
        request = space.request
        return [
            (
                space.index(request.door(band.a)),
                space.index(request.door(band.b)),
                band.floor,
                band.max_stops,
            )
            for band in request.route_bands
        ]

    def conditions(self, request: LayoutRequest, objective: str, maximizing: bool) -> dict | None:
        """Its routes and how they make one score (``room_score``), every route's band in them."""
        return {
            "routes": self.kernel_routes(LayoutSpace.of(request)),
            "room_score": kernel_score(maximizing, objective),
        }

    def met(self, scored: Any, meeting: bool) -> int:
        return scored.floors if meeting else scored.stops

    def check(self, request: LayoutRequest, validate: Callable[[LayoutRequest], None]) -> None:
        from designer.core.room_checks import check_room

        check_room(request, validate)

    def infeasible_text(self, request: LayoutRequest, other: str) -> str:
        return (
            f"proven infeasible: no {request.height}x{request.width} room whose routes "
            f"({request.routes_text()}) are all strong and reversible exists under these constraints{other}"
        )

    def proof_text(self, request: LayoutRequest, pairs: Callable[[], int]) -> str:
        return " (the SAT loop proved it for the room's routes on one set of rocks)"


#: The two tables.
LEVEL_REQUEST = LevelRequestKind()
ROOM_REQUEST = RoomRequestKind()


def request_kind(request: LayoutRequest) -> RequestKind:
    """The table of ``request``'s kind: a room's when it has doors (``LayoutRequest.room_doors``)."""
    return ROOM_REQUEST if request.room_doors else LEVEL_REQUEST
