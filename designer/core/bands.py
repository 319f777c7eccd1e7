"""The band "K" or "K..M" (``Band``), the one form every option that takes a range reads
(``--curve``, ``--full-clear``, ``--rocks``, a cave's ``min_stops=``, a route's band); and a
route's band (``RouteBand``): the route of a room from door A to door B, with its floor K or its
band K..M of min stops, in the text form ``--route`` takes ("1:3=15", "1:2=9..12")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from designer.core.errors import LevelError
from designer.core.room import parse_route


@dataclass(frozen=True)
class Band:
    """A band of numbers in its text form: "K" (``high`` None: K, or from K up, as the option
    says) or "K..M". ``parse`` reads it with the option's own reading of a number, and raises
    ValueError where either number does not read; each option checks its range itself, in its
    own words. It prints back as it was read:

    >>> [str(Band.parse(text)) for text in ("5", "2..8")]
    ['5', '2..8']
    >>> Band.parse("2..8.5", float)
    Band(low=2.0, high=8.5)
    """

    low: Any  # int, or float as the option reads it
    high: Any = None

    @classmethod
    def parse(cls, text: str, number: Callable[[str], Any] = int) -> Band:
        low, dots, high = text.partition("..")
        return cls(number(low), number(high) if dots else None)

    def __str__(self) -> str:
        return f"{self.low}" if self.high is None else f"{self.low}..{self.high}"


def digits(most: int) -> Callable[[str], int]:
    """A reading of a number that takes plain digits only, at most ``most`` of them (no sign, no
    space, no underscore): ValueError otherwise."""

    def read(text: str) -> int:
        if not (text.isascii() and text.isdigit() and len(text) <= most):
            raise ValueError(f"not {most} digits or fewer: {text!r}")
        return int(text)

    return read


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
        try:
            read = Band.parse(band, digits(7))
        except ValueError:
            raise LevelError(
                f"--route takes A:B, A:B=K or A:B=K..M (K and M whole numbers), not {text!r}"
            ) from None
        return cls(a, b, read.low, read.high)

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
