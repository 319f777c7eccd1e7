"""What a cave is asked for (``CaveRequest``: the drawn cave, its band of min stops, each room's and
route's band, and its JSON form in the generator record), what designing it gives
(``CaveDesign``), and a request it cannot meet, with why (``CaveFailed``)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from designer.caves.cave import Cave
from designer.core.errors import DesignerError, RequestNotMet
from designer.core.limits import FELT_HIGHEST, FELT_LOWEST

#: The min stops a cave is asked when the user names none (a cave drawn from nothing asks more of
#: more rooms: ``designer.caves.asking.default_min_stops``).
DEFAULT_MIN_STOPS = 30


@dataclass(frozen=True)
class CaveRequest:
    """What a cave is asked for: the ``cave`` (its free rooms to fill), the band of its way
    through, and bands a user gives per route (``routes``: (room, a, b, floor, ceiling)) or per
    room (``rooms``: (room, floor, ceiling): every passage of it). ``grammar`` records how a cave
    asked for from nothing was drawn (``designer.caves.grammar``), for ``--from``. ``difficulty``:
    a band of predicted difficulty, (low, high or None), the cave is designed again until it
    lands in (``designer.caves.felt``); ``aim``: the band is the default's aim, not asked (the
    nearest design is kept when none lands in it)."""

    cave: Cave
    min_stops: int = DEFAULT_MIN_STOPS
    max_stops: int | None = None
    routes: tuple = ()
    rooms: tuple = ()
    grammar: dict | None = None
    difficulty: tuple[float, float | None] | None = None
    aim: bool = False

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
        if self.difficulty is not None:
            found["difficulty"] = list(self.difficulty)
            if self.aim:
                found["aim"] = True
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
                _band_of(obj.get("difficulty")),
                obj.get("aim") is True,
            )
        except TypeError:
            raise DesignerError("the cave's generator record's request is not one") from None


def _band_of(value: object) -> tuple[float, float | None] | None:
    """A request's ``difficulty`` as its JSON holds it, [low, high or null] (DesignerError)."""
    if value is None:
        return None
    numbers = (int, float)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or type(value[0]) not in numbers
        or (value[1] is not None and type(value[1]) not in numbers)
    ):
        raise DesignerError("the cave request's 'difficulty' must be [low, high or null]")
    low, high = float(value[0]), None if value[1] is None else float(value[1])
    fault = band_fault(low, high, "the cave request's 'difficulty'")
    if fault:
        raise DesignerError(fault)
    return low, high


def band_fault(low: float, high: float | None, what: str = "{difficulty}") -> str | None:
    """Why a band of predicted difficulty cannot be asked (None: it can): each end in the scale's
    range, the ceiling not below the floor. ``what`` names the band in the line.

    >>> band_fault(8.5, 9.5), band_fault(12.0, None)
    (None, None)
    >>> band_fault(9.5, 8.5)
    "{difficulty} 9.5..8.5: the band's ceiling is below its floor"
    """
    for value in (low, high):
        if value is not None and not (
            math.isfinite(value) and FELT_LOWEST <= value <= FELT_HIGHEST
        ):
            return f"{what} takes predicted difficulties from {FELT_LOWEST:g} to {FELT_HIGHEST:g}, not {value:g}"
    if high is not None and high < low:
        return f"{what} {low:g}..{high:g}: the band's ceiling is below its floor"
    return None


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
