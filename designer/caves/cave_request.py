"""What a cave is asked for (``CaveRequest``: the drawn cave, its band of min stops, each room's and
route's band, and its JSON form in the generator record), what designing it gives
(``CaveDesign``), and a request it cannot meet, with why (``CaveFailed``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from designer.caves.cave import Cave
from designer.core.errors import DesignerError, RequestNotMet

#: The min stops a cave is asked when the user names none (a cave drawn from nothing asks more of
#: more rooms: ``designer.caves.design.default_min_stops``).
DEFAULT_MIN_STOPS = 30


@dataclass(frozen=True)
class CaveRequest:
    """What a cave is asked for: the ``cave`` (its free rooms to fill), the band of its way
    through, and bands a user gives per route (``routes``: (room, a, b, floor, ceiling)) or per
    room (``rooms``: (room, floor, ceiling): every passage of it). ``grammar`` records how a cave
    asked for from nothing was drawn (``designer.caves.grammar``), for ``--from``."""

    cave: Cave
    min_stops: int = DEFAULT_MIN_STOPS
    max_stops: int | None = None
    routes: tuple = ()
    rooms: tuple = ()
    grammar: dict | None = None

    def to_json(self) -> dict:
        found = {"cave": str(self.cave), "min_stops": self.min_stops}
        if self.max_stops is not None:
            found["max_stops"] = self.max_stops
        if self.routes:
            found["routes"] = [list(route) for route in self.routes]
        if self.rooms:
            found["rooms"] = [list(room) for room in self.rooms]
        if self.grammar:
            found["grammar"] = self.grammar
        return found

    @classmethod
    def from_json(cls, obj: object) -> CaveRequest:
        if (
            not isinstance(obj, dict)
            or not isinstance(obj.get("cave"), str)
            or type(obj.get("min_stops")) is not int
        ):
            raise DesignerError("the cave's generator record holds no request (cave and min_stops)")
        try:
            return cls(
                Cave.parse(obj["cave"]),
                obj["min_stops"],
                obj.get("max_stops"),
                tuple(tuple(route) for route in obj.get("routes", ())),
                tuple(tuple(room) for room in obj.get("rooms", ())),
                obj.get("grammar"),
            )
        except TypeError:
            raise DesignerError("the cave's generator record's request is not one") from None


@dataclass(frozen=True)
class CaveDesign:
    """A designed cave, verified, its analysis, and the record that makes it again."""

    cave: Cave
    analysis: object
    record: dict = field(default_factory=dict)


class CaveFailed(RequestNotMet):
    """A cave request not met: ``reason`` is "infeasible" (proven) or "time limit"."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
