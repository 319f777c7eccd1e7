"""Difficulty as a game asks for it: named presets, and packs whose difficulty rises.

The presets (``designer make --difficulty NAME``), written once here:

========  ===========  ======================================================================
name      min stops    what the designer does
========  ===========  ======================================================================
easy      3 to 5       a level in the band (source 003's "easy")
medium    6 to 9       a level in the band (source 003's "medium")
hard      10 or more   a level of at least 10 (source 003's "hard")
expert    the most     the longest level it can find (40% of the time limit, proven optimal
                       where the proof fits), then, at that length, the most options along the
                       solution (20%); when more than a quarter of its stops (25 or more) are
                       rail stops, the longest level of real decisions found in the rest
                       (lengths halved between the railroad's and a level whose rails are a
                       quarter or fewer, each designed with its decisions raised). With no
                       size asked, on a 16x16 frame (``EXPERT_SIDE``)
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
from designer.search.tuning import (
    EXPERT_CHOICES_SHARE,
    EXPERT_LENGTH_SHARE,
    EXPERT_RAIL_SHARE,
    EXPERT_RAILS_FROM,
    EXPERT_TRY_SHARE,
)

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


#: The square frame a pack's level of a curve gets when no size is asked, by its min stops: (most
#: stops, side), the first that holds it; a long level needs room for its decisions (measured, seed
#: 0, each level with its decisions raised: on 12x12, 25 stops had 4 rail stops, 31 had 10 and 35
#: had 17; on 14x14, 31 stops had 4, 35 had 4 to 11 and 40 had 11; on 16x16, 35 had 5, 45 had 7
#: and 51 had 9).
FRAMES = ((25, 12), (31, 14), (55, 16))
#: The side beyond the last of ``FRAMES``.
LARGEST_FRAME = 20


def frame_for(stops: int) -> int:
    """The side of the square frame for a level of ``stops`` min stops (``FRAMES``).

    >>> [frame_for(k) for k in (5, 25, 26, 31, 32, 55, 80)]
    [12, 12, 14, 14, 16, 16, 20]
    """
    return next((side for most, side in FRAMES if stops <= most), LARGEST_FRAME)


def grown(request: LayoutRequest, stops: int) -> LayoutRequest:
    """``request`` on the frame ``frame_for(stops)`` when that is larger than its own."""
    side = frame_for(stops)
    if side <= max(request.height, request.width):
        return request
    return replace(request, height=side, width=side)


def design_expert(job: DesignJob, run) -> Design:
    """The expert preset: the longest level ``run`` can find in a share of ``job``'s time limit,
    then, at that length, the level with the most options along its solution; when that level,
    of ``EXPERT_RAILS_FROM`` stops or more, has rail stops more than ``EXPERT_RAIL_SHARE`` of its
    stops (a railroad), the longest level of
    real decisions (``_decided``: lengths halved between the railroad's and a level of decisions,
    in the time left; none found: the railroad stands, its stage says so). ``run(job)`` is a method's ``run`` (so
    packs, exclusions and progress work as for any request). The record keeps the request as
    given and ``difficulty="expert"``, which ``make --from`` runs again."""
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
                time_limit=min(budget.left(), time_limit * EXPERT_CHOICES_SHARE),
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
    if best.min_stops >= EXPERT_RAILS_FROM and _rails(best) > EXPERT_RAIL_SHARE * best.min_stops:
        stage += f", {_rails(best)} of {best.min_stops} stops on rails"
        decided = _decided(job, run, budget, length)
        if decided is not None:
            best = decided
            stage += (
                f"; then decisions: {decided.min_stops} stops, {_rails(decided)} on rails "
                f"({decided.generator.stage})"
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
            # the proof is of the longest length: a shorter level of decisions has none
            proven_optimal=longest.generator.proven_optimal if best.min_stops >= length else None,
        ),
    )


def _decided(job: DesignJob, run, budget: Budget, length: int) -> Design | None:
    """The longest level of real decisions (rail stops at most ``EXPERT_RAIL_SHARE`` of its
    stops) found by halving between the longest length, a railroad, and the longest such level
    found so far, from half of it: each length designed as ``auto`` designs (its decisions
    raised), in at most ``EXPERT_TRY_SHARE`` of the time limit, while time is left and the
    lengths are more than a twentieth of the longest apart. None when no length gave one."""
    from designer.search.result import DesignFailed

    best, low, high = None, 0, length  # ``low``: a level of decisions; ``high``: a railroad
    stops = length // 2
    while stops > low and budget.left() > 0:
        try:
            found = run(
                job.but(
                    request=replace(job.request, min_stops=stops),
                    time_limit=min(budget.left(), job.time_limit * EXPERT_TRY_SHARE),
                    difficulty=None,
                )
            )
        except DesignFailed:  # not found in its share: taken as too long
            high = stops
        else:
            if _rails(found) <= EXPERT_RAIL_SHARE * found.min_stops:
                best, low = found, found.min_stops
            else:
                high = stops
        if high - low <= max(1, length // 20):
            break
        stops = (low + high) // 2
    return best


def _rails(found: Design) -> int:
    """The rail stops along a design's printed solution (``designer.analysis.along``)."""
    return found.analysis.rail_stops
