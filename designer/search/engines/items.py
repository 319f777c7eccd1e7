"""Designing with items (``make --items N``, or ``*`` in a template): annealing over rocks and
items together, on the graph of states (``designer.core.items``).

The designer's portfolio first designs the plain level (no items: every stage of
``designer.search.design``); this module then places the items on it and anneals rocks, items and
ends at once. A chain climbs first (it takes no worse layout), then anneals; it takes one random
change at a time (an item moved to another free ice cell,
a free cell toggled between ice and rock, a rock moved when a rock budget is set, a snow tile
moved when snow is asked for, or the start or goal moved to another allowed cell) and keeps a worse layout with probability exp(-loss / heat).
A layout is **valid** when it is strong and reversible on its states, within the request's band,
and every item matters (the fewest-moves solution is shorter without it); an invalid one is
scored far below every valid one, so the chain walks back to validity, and only valid layouts are
ever kept as the best. The best goes to the one verifier like any other level.

The CP-SAT model does not pose the graph of states (docs/model.md says why), and the compiled
chains count cells, not states: this chain is numpy over the state tables, with the compiled
breadth-first search (``kernels.reach``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from designer.core.bands import RouteBand
from designer.core.budget import Budget
from designer.core.control import check
from designer.core.errors import DesignerError
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.core.terrain import ICE, ITEM_CHAR
from designer.search.engines.item_chain import ItemChain
from designer.search.engines.item_lanes import chains
from designer.search.goal import Goal
from designer.search.job import DesignJob
from designer.search.result import Design, DesignFailed
from designer.search.state import Progress, Search, StageResult
from designer.search.tuning import (
    ITEMS_PLAIN_SHARE,
    ITEMS_PLAIN_STOPS,
)


def opened_template(request: LayoutRequest, rng: np.random.Generator) -> Level:
    """The first layout of a template with floors, or of a vault: every free cell ice, the ends on
    their pins or on random allowed cells (a vault's on its door), floors and portals as drawn."""
    terrain = np.array(
        [[ICE if tile < 0 else tile for tile in row] for row in request.fixed_grid()], np.uint8
    )
    starts, goals = request.start_cells(), request.goal_cells()
    start = starts[rng.integers(len(starts))]
    if request.is_vault:
        terrain[start] = ICE
        return Level(terrain, start, start, "canonical", tuple(request.pinned_items))
    goals = [cell for cell in goals if cell != start]
    if not goals:
        raise DesignerError("no two cells (free or ice) are left for the start and the goal")
    goal = goals[rng.integers(len(goals))]
    terrain[start] = terrain[goal] = ICE
    return Level(
        terrain, start, goal, "canonical", (), tuple(request.portals or ()), request.floor_values
    )


def design_with_items(job: DesignJob, *, plain_design: Callable) -> Design:
    """A level (or a room) with items: the plain one first, by ``plain_design`` (the portfolio's
    ``design``, ``ITEMS_PLAIN_SHARE`` of the time; meeting K, a plain level of ``K -
    ITEMS_PLAIN_STOPS`` stops per item, which the items then lengthen), then the items placed and
    annealed with the rocks: one chain per worker. Meeting K, the first verified level;
    maximizing (stops, or with ``maximize_choices`` the options a stop along the solution, K
    kept), the best one (never proven optimal). ``--min-choices`` and ``--unique`` are conditions
    every layout the chain keeps meets."""
    request, seed, workers, method, cancel = (
        job.request,
        job.seed,
        job.workers,
        job.method,
        job.cancel,
    )
    maximize, maximize_choices, exclude = job.maximize, job.maximize_choices, job.exclude
    if method != "auto":
        model = "the SAT loop" if method == "sat" else "the CP-SAT model"
        raise DesignerError(
            f"{model} does not pose items, portals to place, floors or wrap-around "
            "(docs/model.md): --items, a template's items, --teleports and a template's floors or "
            "wrap need --method auto"
        )
    if not request_kind(request).counts_item_choices and (
        request.asks_for_choices or maximize_choices
    ):
        raise DesignerError(
            "the choices along a room's routes are not counted with items: --min-choices, --unique "
            "and --maximize-choices need a room without items"
        )
    progress = job.progress or Progress()
    budget = Budget(job.time_limit, ended=cancel)

    def lowered(stops: int) -> int:
        return (
            1
            if maximize
            else max(1, stops - ITEMS_PLAIN_STOPS * (request.item_count + request.teleports))
        )

    routes = (
        None
        if request.routes is None
        else tuple(
            RouteBand(band.a, band.b, None if band.min_stops is None else lowered(band.min_stops))
            for band in request.routes
        )
    )
    plain_rows = (
        None
        if request.template is None
        else tuple(row.replace(ITEM_CHAR, ".") for row in request.template)
    )
    # a start: no decisions
    plain = replace(
        request,
        items=0,
        teleports=0,
        floors=None,
        portals=None,
        template=plain_rows,
        min_stops=lowered(request.min_stops),
        max_stops=None,
        tidy=False,
        min_choices=None,
        unique=False,
        routes=routes,
        first=True,
    )
    if request.floors or request.is_vault:  # the portfolio's stages know one grid and two ends: the
        # chains start from the template itself
        start = opened_template(request, np.random.default_rng(seed))
    else:
        progress.update(phase="items: the plain level first")

        def plain_level(asked: LayoutRequest, most: bool) -> Level:
            """The plain level of ``asked``, in its share of the time left."""
            return plain_design(
                DesignJob.derived(
                    asked,
                    seed=seed,
                    time_limit=budget.left() * ITEMS_PLAIN_SHARE,
                    workers=workers,
                    maximize=most,
                    progress=progress,
                    cancel=cancel,
                )
            ).level

        try:
            start = plain_level(plain, maximize)
        # no plain level that long (a proof for the plain level only: items revisit cells)
        except DesignFailed:
            check(cancel)
            start = plain_level(
                replace(
                    plain,
                    min_stops=1,
                    routes=None
                    if plain.routes is None
                    else tuple(RouteBand(band.a, band.b) for band in plain.routes),
                ),
                False,
            )
    goal = (
        Goal.maximize("per_stop")
        if maximize_choices
        else Goal.maximize()
        if maximize
        else Goal.meet(request.min_stops)
    )
    search = Search(
        request,
        goal,
        seed=seed,
        budget=budget,
        workers=workers or os.cpu_count() or 1,
        method=method,
        excluded=set(exclude),
        progress=progress,
    )
    target = None if goal.maximizing else request_kind(request).target(request)
    lanes = search.workers if sys.platform.startswith("linux") else 1
    extras = ", ".join(
        part
        for part in (
            f"{request.item_count} items" if request.item_count else "",
            f"{request.teleports} teleport pairs" if request.teleports else "",
            f"{len(request.floors)} floors" if request.floors else "",
        )
        if part
    )
    progress.update(
        phase=f"items: annealing rocks and {extras}" + (f", {lanes} chains" if lanes > 1 else "")
    )

    # what the chains placed
    stage = (
        "items and portals"
        if request.item_count and (request.teleports or request.portals)
        else "items"
        if request.item_count
        else "portals"
    )

    def rejected(level: Level, phase: str) -> bool:
        found = search.verify(level, f"{stage} {phase}")
        if found is not None:
            search.absorb(StageResult(design=found))
        return found is None

    while search.best is None and not budget.expired():
        if lanes == 1:
            ItemChain(request, search.rng, goal.objective).run(
                start,
                budget,
                target=target,
                rejected=rejected,
                on_best=lambda stops, level: search.seen(stops),
            )
            continue
        found = chains(
            request, start, budget, search.rng, lanes, target=target, objective=goal.objective
        )
        for _, stops, phase, level in found:  # the best the verifier passes
            search.seen(stops)
            if not rejected(level, phase):
                break
        if found:
            start = found[0][3].replace(
                items=request.pinned_items if request.is_vault else (), portals=()
            )
    if search.best is None:
        raise search.timed_out()
    return search.finish_maximize(proven=False) if goal.maximizing else search.best
