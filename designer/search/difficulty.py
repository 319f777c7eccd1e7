"""Difficulty as a game asks for it: named presets, and packs whose difficulty rises.

The presets (``designer make --difficulty NAME``), written once here:

========  ===========  ======================================================================
name      min stops    what the designer does
========  ===========  ======================================================================
easy      3 to 5       a level in the band (source 003's "easy")
medium    6 to 9       a level in the band (source 003's "medium")
hard      10 or more   a level of at least 10 (source 003's "hard")
expert    the most     the longest level it can find (half the time limit, proven optimal where
                       the proof fits), then, at that length, the most options along the
                       solution (the other half)
========  ===========  ======================================================================

A curve (``--count N --curve A..B``, ``designer.core.curves.Curve``) gives level i (from 0) the target
``round(A + i (B - A) / (N - 1))`` and asks for a level of that many stops or one more, so the
pack rises from A to B in even steps.

>>> [PRESETS[name].band for name in ("easy", "medium", "hard")]
[(3, 5), (6, 9), (10, None)]
>>> from designer.core.curves import Curve
>>> Curve.parse("5..35", "stops").targets(7)
[5, 10, 15, 20, 25, 30, 35]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from designer.core.budget import Budget
from designer.core.errors import DesignerError
from designer.core.request import LayoutRequest
from designer.search.tuning import EXPERT_LENGTH_SHARE

if TYPE_CHECKING:  # the command line reads PRESETS at start-up: nothing heavy is imported for it
    from designer.core.curves import Curve
    from designer.search.job import DesignJob
    from designer.search.result import Design


@dataclass(frozen=True)
class Preset:
    name: str
    band: tuple[int, int | None] | None  # (min stops, max stops or None); None: expert's own search
    summary: str
    felt: float | None = (
        None  # the predicted difficulty asked with --curve-by difficulty (designer.search.felt)
    )


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("easy", (3, 5), "3 to 5 stops (by difficulty: 3)", 3.0),
        Preset("medium", (6, 9), "6 to 9 stops (by difficulty: 5)", 5.0),
        Preset("hard", (10, None), "10 stops or more (by difficulty: 7)", 7.0),
        Preset("expert", None, "the longest level found, then the most choices at that length"),
    )
}
EXPERT = "expert"


def preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise DesignerError(
            f"unknown difficulty {name!r}: choose from {', '.join(PRESETS)}"
        ) from None


def banded(request: LayoutRequest, name: str) -> LayoutRequest:
    """The request with the preset's band of min stops (expert: min stops 1, raised by its search)."""
    band = preset(name).band
    low, high = band if band is not None else (1, None)
    return replace(request, min_stops=low, max_stops=high)


def curve_requests(request: LayoutRequest, curve: Curve, count: int) -> list[LayoutRequest]:
    """One request per level of the curve (of min stops): a band of the target and one more."""
    return [replace(request, min_stops=k, max_stops=k + 1) for k in curve.targets(count)]


def design_expert(job: DesignJob, run) -> Design:
    """The expert preset: the longest level ``run`` can find in a share of ``job``'s time limit,
    then, at that length, the level with the most options along its solution. ``run(job)`` is a
    method's ``run`` (so packs, exclusions and progress work as for any request). The record
    keeps the request as given and ``difficulty="expert"``, which ``make --from`` runs again."""
    from designer.search.result import DesignFailed

    request, time_limit = job.request, job.time_limit
    budget = Budget(time_limit)
    longest = run(
        job.but(time_limit=budget.left() * EXPERT_LENGTH_SHARE, maximize=True, difficulty=None)
    )
    best = longest
    length = longest.min_stops
    try:
        best = run(
            job.but(
                request=replace(request, min_stops=length),
                time_limit=budget.left(),
                maximize_choices=True,
                hint=longest.level,
                difficulty=None,
            )
        )
    except DesignFailed:  # no time left for the choices: the longest level stands
        pass
    stage = (
        f"expert: longest {longest.generator.stage}, then choices {best.generator.stage}"
        if best is not longest
        else f"expert: longest {longest.generator.stage}"
    )
    return replace(
        best,
        generator=best.generator.but(
            stage=stage,
            seconds=budget.seconds(),
            time_limit=time_limit,
            request=request,
            maximize=False,
            maximize_choices=False,
            difficulty=EXPERT,
            proven_optimal=longest.generator.proven_optimal,
        ),
    )
