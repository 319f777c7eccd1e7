"""A room of numbered doors (``designer.core.room``) as a kind of puzzle (``ROOM``): each route
A:B solved, analysed, drawn and played as the classic level it is; and the plain results of
solving and analysing one (``RoomSolved``, ``RoomAnalysed``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from designer.core.room import Room

if TYPE_CHECKING:
    from designer.analysis.routes import RoomAnalysis


@dataclass(frozen=True)
class RoomSolved:
    """A room and the optimal solution of each route asked for
    (``designer.analysis.routes.RouteSolution``)."""

    kind: ClassVar[str] = "room"
    room: Room
    routes: list
    full: dict | None = (
        None  # with coins: each route's full clear (designer.analysis.tour.FullClear), by name
    )


@dataclass(frozen=True)
class RoomAnalysed:
    """A room and the analysis of each route asked for (``designer.analysis.routes.RoomAnalysis``)."""

    kind: ClassVar[str] = "room"
    room: Room
    analysis: RoomAnalysis
    full: dict | None = None  # with coins: each route's full clear, by name

    def to_dict(self) -> dict:
        out = self.analysis.to_dict()
        if self.full is not None:
            out["full_clear"] = {name: tour.to_dict() for name, tour in self.full.items()}
        return out


class RoomKind:
    """The table of a room: its hooks answer ``designer.ops.kinds.protocol.PuzzleKind``."""

    name = "room"
    draws_figures = False
    routes_refused: str | None = None

    def holds(self, found: object) -> bool:
        return isinstance(found, Room)

    def solve(self, found: Room, *, by: str, routes: list | None, budget) -> RoomSolved:
        from designer.analysis.routes import solve_routes

        return RoomSolved(
            found, solve_routes(found, routes, by=by), self.full_clear(found, budget, routes)
        )

    def analyze(self, found: Room, *, routes: list | None, player, budget) -> RoomAnalysed:
        from designer.analysis.routes import analyze_routes

        return RoomAnalysed(
            found, analyze_routes(found, routes), self.full_clear(found, budget, routes)
        )

    def full_clear(self, found: Room, budget, routes: list | None = None) -> dict | None:
        """Each route's full clear, by name (None without coins): each route takes its share of
        what is left of ``budget``."""
        from designer.analysis.tour import full_clear

        if not found.coins:
            return None
        asked = found.routes(routes)
        return {
            f"{a}:{b}": full_clear(found.route(a, b), budget.share(1 / (len(asked) - k)))
            for k, (a, b) in enumerate(asked)
        }

    def unsolvable(self, name: str, found: Room) -> str | None:
        from designer.analysis.graph import is_solvable

        lost = [f"{a}:{b}" for a, b in found.routes() if not is_solvable(found.route(a, b))]
        return f"route {lost[0]} of {name} has no solution to draw (--solution)" if lost else None

    def picture(self, found: Room, *, cell: int, solution: bool, **figures):
        from designer.export.picture import draw_room

        return draw_room(found, cell=cell, solution=solution)

    def sheet_cell(self, name: str, found: Room, *, cell: int, solution: bool, **figures) -> tuple:
        from designer.export.picture import room_cell

        return room_cell(name, found, cell=cell, solution=solution)

    def tileset(self, found: Room) -> tuple[str, tuple[str, ...]]:
        from designer.export.tiled import room_tileset

        return room_tileset(found)

    def tiled_map(self, entry, *, cell: int) -> dict:
        from designer.export.tiled import room_to_tiled

        return room_to_tiled(entry.level, cell=cell)

    def page_entries(self, entry) -> list[dict]:
        from designer.export.play import route_entries

        return route_entries(entry.name, entry.level)

    def played_levels(self, name: str, found: Room) -> list[tuple[str, object]]:
        """Every route each way, named as the page names them."""
        return [
            (f"{name}: door {route[0]} to door {route[1]}", found.route(*route))
            for a, b in found.routes()
            for route in ((a, b), (b, a))
        ]

    def sketch_json(self, found: Room) -> str:
        from designer.analysis.routes import analyze_routes
        from designer.formats.level_json import format_json, room_to_json

        return format_json(room_to_json(found, report=analyze_routes(found)))


#: The table of a room.
ROOM = RoomKind()
