"""Decisions by default: once a level meets its request, a short search for the choices a player
has at each stop.

A level that only meets its min stops is most often a railroad: most of its stops leave one
other way on, so the player has nothing to decide (source 002's warning). So ``auto``, having
met a request, gives annealing chains a short budget of work (``DECISIONS_CHAINS`` chains of
``DECISIONS_STEPS`` steps each, within the time left: the same seed gives the same level) to
raise the level's *decisions*: the options a stop along the printed solution less the share
of its rail stops (stops with at most one other move), in thousandths. Every level they keep
meets the whole request (its min stops stay a floor, its ceiling, choice floors and
``--unique`` hold) and passes the one verifier. A chain stops early at ``DECISIONS_ENOUGH``, or
when its best has not risen for ``DECISIONS_STALL`` steps.

``--first`` (``LayoutRequest.first``) returns the first level found, as before. Nothing is
improved when the request maximizes (``--maximize``, ``--maximize-choices``, expert), names
another method than ``auto``, holds items, portals or floors, or where the chains do not apply
(snow to place, or no compiled kernels). A room's chains raise the fewest options a stop along
any of its routes (``designer.search.engines.rooms``), every route's band kept. The generator
record's ``improved`` says what was done, and for how long.

>>> decisions_milli(46, 3, 25)   # 1.84 options a stop, 3 of 25 stops rails
1720
>>> decisions_milli(5, 25, 25)
0
"""

from __future__ import annotations

from dataclasses import replace

from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.search.engines import anneal
from designer.search.result import Design, choice_figures, stops_of
from designer.search.state import Search, StageResult, timed
from designer.search.tuning import (
    DECISIONS_CHAINS,
    DECISIONS_ENOUGH,
    DECISIONS_STALL,
    DECISIONS_STEPS,
)


def decisions_milli(options: int, rails: int, stops: int) -> int:
    """Options a stop less the share of rail stops, in thousandths, never below 0 (the compiled
    chains' ``decisions_milli``, without its mark for a layout that meets the floor)."""
    return max(0, (1000 * options - 1000 * rails) // max(1, stops))


def wanted(request: LayoutRequest, *, method: str, maximizing: bool) -> bool:
    """Whether ``design`` spends time on decisions after meeting ``request``."""
    return (
        method == "auto"
        and not request.first
        and not maximizing
        and not request.extras
        and anneal.applies(request)
    )


def _score(design: Design) -> int:
    """A level's decisions; a room's fewest options a stop along any route (both in thousandths)."""
    if design.routes is not None:
        return design.per_stop_milli
    a = design.analysis
    return decisions_milli(a.options, a.rail_stops, stops_of(a))


def _figures(design: Design) -> str:
    if design.routes is not None:
        return f"{design.per_stop_milli / 1000:.2f} options a stop along the poorest route"
    a = design.analysis
    return f"{a.per_stop:.2f} options a stop, {a.rail_stops} rail stop{'s' * (a.rail_stops != 1)}"


def improve(search: Search, found: Design) -> Design:
    """``found`` (a design meeting the request), or a verified level with more decisions that the
    chains found; either way its record says what was done."""
    began = search.budget.now()
    result = decisions_stage(search, found)
    seconds = search.budget.now() - began
    chosen = result.design or found
    if result.design is None:
        text = f"decisions for {seconds:.2f} s after {found.generator.stage}: none better than {_figures(found)}"
    else:
        text = f"decisions for {seconds:.2f} s after {found.generator.stage}: {_figures(found)} -> {_figures(chosen)}"
    stage = (
        chosen.generator.stage
        if result.design is None
        else f"{found.generator.stage}, then decisions"
    )
    poorest = (
        chosen.analysis
        if chosen.routes is None
        else min((one.analysis for one in chosen.routes.routes), key=lambda a: a.options)
    )
    record = chosen.generator.but(
        stage=stage,
        improved=text,
        seconds=round(search.budget.seconds(), 3),
        stage_seconds=search.stage_seconds(),
        **choice_figures(poorest),
    )
    return replace(chosen, generator=record)


@timed("decisions")
def decisions_stage(search: Search, found: Design) -> StageResult:
    """The chains that count decisions, from ``found``, for their steps (within the time left): a
    verified better level, or nothing."""
    score_before = _score(found)
    if score_before >= DECISIONS_ENOUGH:
        return StageResult()
    search.progress.update(phase="annealing for decisions")
    level, score = anneal.search(
        search.request,
        found.level,
        found.min_stops,
        search.rng,
        search.budget,
        DECISIONS_CHAINS,
        target=DECISIONS_ENOUGH,
        objective=request_kind(search.request).choice_objective("decisions"),
        steps=DECISIONS_STEPS,
        stall=DECISIONS_STALL,
    )
    if level is None or score <= score_before or level == found.level:
        return StageResult()
    return StageResult(search.verify(level, "decisions"))
