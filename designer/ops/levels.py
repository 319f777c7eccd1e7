"""Solving and analysing a level file: the level read (a path, or - for standard input), and
plain results (``Solved``, ``Analysed``) for a shell to show. A file that holds a room with
several doors (``designer.core.room``) gives its routes instead (``RoomSolved``,
``RoomAnalysed``): each route solved or analysed as the classic level it is."""

from __future__ import annotations

from dataclasses import dataclass

from designer.core.level import Level


@dataclass(frozen=True)
class Solved:
    """A level and its optimal solution (None: the goal cannot be reached from the start)."""

    level: Level
    solution: object | None


@dataclass(frozen=True)
class Analysed:
    """A level and its analysis (``designer.analysis.graph.Analysis``)."""

    level: Level
    analysis: object


@dataclass(frozen=True)
class RoomSolved:
    """A room and the optimal solution of each route asked for
    (``designer.analysis.routes.RouteSolution``)."""

    room: object
    routes: list


@dataclass(frozen=True)
class RoomAnalysed:
    """A room and the analysis of each route asked for (``designer.analysis.routes.RoomAnalysis``)."""

    room: object
    analysis: object


def _read(source: str, routes: list | None):
    from designer.core.errors import DesignerError
    from designer.core.room import Room
    from designer.formats.level_files import read_level_or_room

    found = read_level_or_room(source)
    if routes and not isinstance(found, Room):
        raise DesignerError("--route names a room's doors (1-9): this level has one start (S) and one goal (G)")
    return found


def solve(source: str, *, by: str = "moves", routes: list | None = None) -> Solved | RoomSolved:
    """Read a level (a path, or - for standard input) and solve it: fewest moves (ties: least
    distance) or least distance (``by="distance"``). A room: each of ``routes`` (pairs of doors;
    every pair i < j when None)."""
    from designer.analysis.routes import solve_routes
    from designer.analysis.solver import solve as solve_level
    from designer.core.room import Room

    found = _read(source, routes)
    if isinstance(found, Room):
        return RoomSolved(found, solve_routes(found, routes, by=by))
    return Solved(found, solve_level(found, by=by))


def analyze(source: str, *, routes: list | None = None) -> Analysed | RoomAnalysed:
    """Read a level and analyse it: class, reversibility, min stops, SCCs, traps, figures. A
    room: each of ``routes`` (every pair of doors i < j when None), and the room as a whole."""
    from designer.analysis.graph import analyze as analyze_level
    from designer.analysis.routes import analyze_routes
    from designer.core.room import Room

    found = _read(source, routes)
    if isinstance(found, Room):
        return RoomAnalysed(found, analyze_routes(found, routes))
    return Analysed(found, analyze_level(found))
