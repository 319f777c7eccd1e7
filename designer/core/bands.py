"""A route's band (``RouteBand``): the route of a room from door A to door B, with its floor K or its
band K..M of min stops, in the text form ``--route`` takes ("1:3=15", "1:2=9..12")."""

from __future__ import annotations

from dataclasses import dataclass

from designer.core.errors import LevelError
from designer.core.room import parse_route


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 7


@dataclass(frozen=True)
class RouteBand:
    """A route asked of a room, A:B, with its own band of min stops (None: the request's
    ``--min-stops``/``--max-stops``). Its text form is what ``--route`` takes, and reads back:

    >>> [str(RouteBand.parse(text)) for text in ("1:3", "1:3=15", "2:1=9..12")]
    ['1:3', '1:3=15', '2:1=9..12']
    """

    a: int
    b: int
    min_stops: int | None = None
    max_stops: int | None = None
    #: Whether the route takes the room's items (every route of a room does; a cave's room carries
    #: a key only on the passages its plan takes the key on: ``designer.caves.design``). Not in
    #: the text form: a user's room always takes its items on every route.
    items: bool = True

    @property
    def floor(self) -> int:
        """The band's floor: every band of a room's request has one (its routes are filled in
        before a search reads them)."""
        assert self.min_stops is not None, f"route {self.a}:{self.b} has no floor yet"
        return self.min_stops

    @classmethod
    def parse(cls, text: str) -> RouteBand:
        """'A:B', 'A:B=K' or 'A:B=K..M'; LevelError (one line) for anything else."""
        route, sep, band = text.partition("=")
        a, b = parse_route(route)
        if not sep:
            return cls(a, b)
        low, dots, high = band.partition("..")
        if not _digits(low) or (dots and not _digits(high)):
            raise LevelError(
                f"--route takes A:B, A:B=K or A:B=K..M (K and M whole numbers), not {text!r}"
            )
        return cls(a, b, int(low), int(high) if dots else None)

    @property
    def route(self) -> tuple[int, int]:
        return self.a, self.b

    def __str__(self) -> str:
        band = "" if self.min_stops is None else f"={self.min_stops}"
        return f"{self.a}:{self.b}{band}{'' if self.max_stops is None else f'..{self.max_stops}'}"

    def band_text(self) -> str:
        """'>= 15' or 'in 9..12' (the band resolved: ``LayoutRequest.route_bands``)."""
        return (
            f">= {self.min_stops}"
            if self.max_stops is None
            else f"in {self.min_stops}..{self.max_stops}"
        )
