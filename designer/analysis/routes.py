"""A room's routes solved and analysed: each route A:B is the classic level from door A to door B
(``Room.route``), so every figure of a route is that level's, computed by the one solver and
the one analysis. The room as a whole holds when every route is strong and reversible.

>>> from designer.core.room import Room
>>> room = Room.from_rows(["###3##", "##...#", "2....#", "#....#", "#...##", "##1###"])
>>> found = analyze_routes(room)
>>> [(one.name, one.analysis.solvability, one.analysis.min_stops) for one in found.routes]
[('1:2', 'strong', 6), ('1:3', 'strong', 7), ('2:3', 'strong', 6)]
>>> found.holds, found.failing()
(True, [])
>>> analyze_routes(Room.from_rows(["##3##", "#...#", "2...#", "#...#", "##1##"])).failing()
[('1:2', 'unsolvable'), ('2:3', 'unsolvable')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from designer.analysis.solver import Solution, solve
from designer.core.level import Level
from designer.core.room import Room, Route

if TYPE_CHECKING:  # networkx, which the analysis loads, is no cost of solving a room
    from designer.analysis.graph import Analysis


def route_name(route: Route) -> str:
    return f"{route[0]}:{route[1]}"


@dataclass(frozen=True)
class RouteSolution:
    """One route, the level it is, and its optimal solution (None: the exit cannot be reached)."""

    route: Route
    level: Level
    solution: Solution | None

    @property
    def name(self) -> str:
        return route_name(self.route)

    def to_dict(self) -> dict:
        found = (
            {"solvable": True, **self.solution.to_dict()} if self.solution else {"solvable": False}
        )
        return {"route": self.name, **found}


@dataclass(frozen=True)
class RouteAnalysis:
    """One route, the level it is, and that level's analysis."""

    route: Route
    level: Level
    analysis: Analysis

    @property
    def name(self) -> str:
        return route_name(self.route)

    @property
    def holds(self) -> bool:
        return self.analysis.solvability == "strong" and self.analysis.reversible

    def why_not(self) -> str | None:
        """Why the route fails the room ("unsolvable", "weak", "not reversible"), or None."""
        if self.analysis.solvability != "strong":
            return self.analysis.solvability
        return None if self.analysis.reversible else "not reversible"

    def to_dict(self) -> dict:
        return {
            "route": self.name,
            "from": self.route[0],
            "to": self.route[1],
            **self.analysis.to_dict(),
        }


@dataclass(frozen=True)
class RoomAnalysis:
    """Every route of a room analysed, and whether the room holds (all strong and reversible)."""

    room: Room
    routes: tuple[RouteAnalysis, ...]

    @property
    def holds(self) -> bool:
        return all(one.holds for one in self.routes)

    def failing(self) -> list[tuple[str, str | None]]:
        """(route, why) of every route that fails the room."""
        return [(one.name, one.why_not()) for one in self.routes if not one.holds]

    def to_dict(self) -> dict:
        return {
            "doors": {str(number): list(cell) for number, cell in self.room.doors},
            "strong_and_reversible": self.holds,
            "failing": [{"route": name, "why": why} for name, why in self.failing()],
            "routes": [one.to_dict() for one in self.routes],
        }


def solve_routes(
    room: Room, routes: list[Route] | None = None, by: str = "moves"
) -> list[RouteSolution]:
    """The optimal solution of each route (``routes``, or every pair of doors i < j)."""
    return [
        RouteSolution(route, level, solve(level, by=by))
        for route in room.routes(routes)
        for level in (room.route(*route),)
    ]


def analyze_routes(room: Room, routes: list[Route] | None = None) -> RoomAnalysis:
    """The analysis of each route (``routes``, or every pair of doors i < j)."""
    from designer.analysis.graph import analyze

    return RoomAnalysis(
        room,
        tuple(
            RouteAnalysis(route, level, analyze(level))
            for route in room.routes(routes)
            for level in (room.route(*route),)
        ),
    )


def room_difficulty(room: Room, player=None) -> float | None:
    """A room's predicted difficulty: its hardest route's (each pair of doors, each way, played as
    a level from one door to the other; keys as items); None when no route can be crossed."""
    from designer.analysis.player import DEFAULT, play
    from designer.core.errors import LevelError

    felt = []
    for a, b in room.routes():
        for route in ((a, b), (b, a)):
            try:
                felt.append(play(room.route(*route), player or DEFAULT).difficulty)
            except LevelError:
                continue
    return max(felt) if felt else None
