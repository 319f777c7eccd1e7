"""What a design hands back: ``Design`` (a verified level, its analysis and its generator
record), ``GeneratorRecord`` (how it was made, enough to make it again), and ``DesignFailed``
(why a request cannot be met)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from designer.analysis.graph import Analysis
from designer.core.errors import DesignerError, RequestNotMet
from designer.core.level import Level
from designer.core.limits import MAX_SEED, fits_seconds
from designer.core.request import LayoutRequest
from designer.core.request_json import fields_to_json, json_fields
from designer.core.request_kinds import request_kind

if TYPE_CHECKING:
    from designer.analysis.routes import RoomAnalysis


@dataclass(frozen=True)
class GeneratorRecord:
    """The JSON level's ``generator`` record: the request, the method and seed that reproduce the
    level (``designer make --from``), and what the run did."""

    method: str  # the registry's name: auto, cpsat, cpsat-ends, random, repair, greedy
    stage: str  # the stage (or generator) that produced the level
    seed: int
    seconds: float  # the whole run, to the level
    time_limit: float
    request: LayoutRequest | None = None
    maximize: bool = False  # maximizing min stops
    maximize_choices: bool = False  # maximizing the options along the solution
    workers: int | None = None
    samples: int | None = None  # random layouts classified by the sampling stage
    candidates: int | None = None  # levels a classic generator handed to the verifier
    rejected: int = 0  # candidates the verifier refused
    tidied: int | None = None  # tiles --tidy turned into ice
    proven_optimal: bool | None = None  # maximizing: no level with more min stops exists
    searched: int | None = None  # layouts the exhaustive search evaluated for that proof
    options: int | None = None  # asked for choices: the options along the printed solution,
    rail_stops: int | None = None  # its rail stops (at most one other move),
    solutions: int | None = None  # and the fewest-moves solutions
    skipped: tuple[str, ...] = ()  # stages that could not run in the time left, and why
    stage_seconds: dict[str, float] | None = (
        None  # how long each stage ran (at once, in the portfolio)
    )
    difficulty: str | None = (
        None  # a preset with a search of its own ("expert"), run again by make --from
    )
    improved: str | None = None  # what the search for decisions did after the request was met
    # (designer.search.decisions), in words
    difficulty_felt: float | None = (
        None  # asked in predicted difficulty: the level's (designer.search.felt)
    )
    full_clear: int | None = (
        None  # with coins: the full clear's moves, proven optimal (designer.search.coins)
    )

    def but(self, **changes) -> GeneratorRecord:
        return replace(self, **changes)

    def to_json(self) -> dict:
        """The record as JSON: fields that do not apply (None, not maximizing, nothing skipped)
        are left out."""
        return fields_to_json(
            self,
            omit=lambda name, value: (
                value is None or (name in ("maximize", "maximize_choices", "skipped") and not value)
            ),
        )

    @classmethod
    def from_json(cls, obj: object) -> GeneratorRecord:
        """A record read back from a level file; DesignerError (one line) when it is not one."""
        values = json_fields(
            cls,
            obj,
            "the level has no generator record (it was not designed by designer make)",
            strict=False,
        )
        for key, (what, fits) in _RECORD_FIELDS.items():
            if key in values and not fits(values[key]):
                raise DesignerError(f"the generator record's {key!r} is not {what}")
        for key in ("method", "stage", "seed", "seconds", "time_limit"):
            if key not in values:
                raise DesignerError(f"the generator record has no {key!r}")
        if "request" not in values:
            raise DesignerError(
                "the generator record has no request (the level was made before records kept one)"
            )
        values["request"] = LayoutRequest.from_json(values["request"])
        values["skipped"] = tuple(values.get("skipped", ()))
        return cls(**values)


def _count(value) -> bool:
    return type(value) is int and 0 <= value <= MAX_SEED  # a seed, or a count (far smaller)


#: What each field of a generator record read back must be: (in words, test).
_RECORD_FIELDS = {
    "method": ("text", lambda v: type(v) is str),
    "stage": ("text", lambda v: type(v) is str),
    "seed": ("a whole number from 0", _count),
    "seconds": ("a number of seconds", fits_seconds),
    "time_limit": ("a number of seconds", fits_seconds),
    **{
        key: ("true or false", lambda v: type(v) is bool)
        for key in ("maximize", "maximize_choices")
    },
    "proven_optimal": ("true, false or null", lambda v: v is None or type(v) is bool),
    **{
        key: ("a whole number from 0 or null", lambda v: v is None or _count(v))
        for key in (
            "workers",
            "samples",
            "candidates",
            "tidied",
            "searched",
            "options",
            "rail_stops",
            "solutions",
            "full_clear",
        )
    },
    "rejected": ("a whole number from 0", _count),
    "skipped": (
        "a list of texts",
        lambda v: isinstance(v, list) and all(type(x) is str for x in v),
    ),
    "difficulty": ('"expert" or null', lambda v: v is None or v == "expert"),
    "improved": ("text or null", lambda v: v is None or (type(v) is str and len(v) <= 500)),
    "difficulty_felt": (
        "a number from 1 to 10 or null",
        lambda v: v is None or (type(v) in (int, float) and 1 <= v <= 10),
    ),
    "stage_seconds": (
        "an object of seconds by stage",
        lambda v: v is None or (isinstance(v, dict) and all(fits_seconds(x) for x in v.values())),
    ),
}


def stops_of(analysis: Analysis) -> int:
    """The min stops of a verified design's level or route: strongly solvable, so never None."""
    assert analysis.min_stops is not None, "a design is strongly solvable"
    return analysis.min_stops


@dataclass(frozen=True)
class Design:
    """A verified level: the level, its analysis, and how it was made. A room (a request with
    doors): ``level`` and ``analysis`` are its first route's, ``routes`` every route's
    (``designer.analysis.routes.RoomAnalysis``), and its figures are its weakest route's."""

    level: Level
    analysis: Analysis
    generator: GeneratorRecord
    routes: RoomAnalysis | None = None  # a room's

    @property
    def room(self):
        """The room designed (``designer.core.room.Room``), or None for a level."""
        return None if self.routes is None else self.routes.room

    @property
    def min_stops(self) -> int:
        """Min stops (a room: its shortest route's)."""
        if self.routes is not None:
            return min(stops_of(one.analysis) for one in self.routes.routes)
        return stops_of(self.analysis)

    @property
    def per_stop_milli(self) -> int:
        """Options a stop along the solution, in thousandths (a room: the fewest along any route;
        ``designer.search.engines.rooms``)."""
        from designer.search.engines.rooms import per_stop_milli

        if self.routes is None:
            return per_stop_milli(self.analysis.options, stops_of(self.analysis))
        return min(
            per_stop_milli(one.analysis.options, stops_of(one.analysis))
            for one in self.routes.routes
        )

    @property
    def options(self) -> int:
        """Options along the solution (a room: the fewest along any route's)."""
        if self.routes is not None:
            return min(one.analysis.options for one in self.routes.routes)
        return self.analysis.options


def choice_figures(report: Analysis) -> dict:
    """The choice figures a record keeps when choices were asked for (see ``GeneratorRecord``)."""
    return {
        "options": report.options,
        "rail_stops": report.rail_stops,
        "solutions": report.solutions,
    }


class DesignFailed(RequestNotMet):
    """The request cannot be met: ``reason`` is "infeasible" or "time limit"."""

    def __init__(self, reason: str, message: str, best: Design | None = None):
        super().__init__(message)
        self.reason = reason
        self.best = best

    def __reduce__(self):  # crosses a cluster as a value
        return DesignFailed, (self.reason, str(self), self.best)


def infeasible_message(request: LayoutRequest, made: int = 0) -> str:
    """ "proven infeasible: ..." for a request, its band included (a room: every route's); ``made``
    levels excluded from the search (a pack's earlier ones) are named as the exception they are.

    >>> infeasible_message(LayoutRequest(5, 5, min_stops=7), made=2)
    'proven infeasible: no strong reversible 5x5 level with min stops >= 7 exists under these constraints other than the 2 made before and their mirror images'
    """
    from designer.models.symmetry import mirrors

    other = ""
    if made:  # the proofs pose one of each set of mirror images, where the request has them
        other = f" other than the {made} made before" + (
            " and their mirror images" if mirrors(request) else ""
        )
    return request_kind(request).infeasible_text(request, other)
