"""The stages that pose the request to a solver: the CP-SAT model (from a hint, beside the other
stages or alone), the model once per start and goal pair, and the counterexample loop. The
stages that search layouts themselves are ``designer.search.stages``."""

from __future__ import annotations

import threading

import numpy as np

from designer.analysis.classify import classify_batch
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.core.space import LayoutSpace
from designer.search.engines import endpoints
from designer.search.goal import Goal
from designer.search.state import Search, StageResult, timed
from designer.search.tuning import (
    EMPTY_ROOM_PAIRS,
)


def empty_room(request: LayoutRequest) -> Level | None:
    """The model's starting point when nothing better is known: every free cell ice and the first
    start and goal (pairs in one row or column first) that make the room strong and reversible.
    A hint, not a stage: the model's own search improves on it. None when no pair works."""
    space = LayoutSpace.of(request)
    terrain = space.base_terrain()  # fixed tiles, ice on the free cells and pinned ends
    pairs = [(s, g) for s in request.start_cells() for g in request.goal_cells() if s != g]
    pairs.sort(key=lambda pair: pair[0][0] != pair[1][0] and pair[0][1] != pair[1][1])
    pairs = pairs[:EMPTY_ROOM_PAIRS]
    if not pairs:
        return None
    terrains, starts, goals = endpoints.endpoint_batch(space, terrain, pairs)
    classes, reversible, stops = classify_batch(terrains, starts, goals)
    good = np.flatnonzero(space.admissible(terrains, classes, reversible, stops, budgets=False))
    if not len(good):
        return None
    k = int(good[0])
    return Level(terrains[k], pairs[k][0], pairs[k][1])


def _best_stops(search: Search):
    return lambda: search.best.min_stops if search.best else -1


@timed("cp-sat")
def model_stage(
    search: Search,
    goal: Goal,
    budget: Budget,
    *,
    narrow_until: threading.Event | None = None,
    follow_best: bool = False,
) -> StageResult:
    """The CP-SAT model (``designer.models``), built and solved within ``budget``, from a hint:
    the best layout so far, else the empty room (``empty_room``). Meeting K, the first verified
    level of at least K; an optimum below K proves the request infeasible. Maximizing, K and
    "better than the best so far" are constraints, and the best verified level found until the
    time runs out or the model proves no better one exists (``follow_best``: the bar rises with
    the best that other stages verify meanwhile). Complete: the model proved its answer.
    Skipped, and said so, when building the model does not fit in the time left."""
    search.progress.update(phase="cp-sat")
    left = budget.left()  # loading OR-Tools (about 0.5 s the first time) counts too
    from designer.models.cpsat import BuildTimedOut, build_model
    from designer.models.solve import solve_model

    request = search.request
    try:
        built = build_model(request, budget=budget, require_min_stops=goal.maximizing)
    except BuildTimedOut:
        return StageResult(
            skipped=f"cp-sat: loading OR-Tools and building the model did not fit in the {left:.1f} s left"
        )
    with search.lock:
        for level in list(search.excluded):
            built.exclude(level.terrain, level.start, level.goal)

    def hint() -> None:  # the best layout so far (the other stages may have moved it on)
        with search.lock:
            layout = (
                search.best.level
                if search.best
                else (search.pool[0][1] if search.pool else empty_room(request))
            )
        if layout is not None:
            built.hint(layout.terrain, layout.start, layout.goal)

    hint()
    # what the model's score must reach
    target = request_kind(request).target(request)
    outcome = solve_model(
        built,
        budget,
        seed=search.seed,
        workers=search.workers,
        min_stops=target,
        maximize=goal.maximizing,
        narrow_until=narrow_until,
        rehint=hint,
        outside_best=_best_stops(search) if follow_best else None,
        better_than=search.best.min_stops if goal.maximizing and search.best else None,
        accept=lambda terrain, start, end: search.verify(
            request.level(terrain, start, end), "cp-sat"
        ),
        stops_of=lambda design: design.min_stops,
        on_stops=search.seen,
    )
    return StageResult(outcome.found, outcome.complete)


@timed("cp-sat by ends")
def ends_model_stage(search: Search, goal: Goal, budget: Budget) -> StageResult:
    """The CP-SAT model posed once per start and goal pair, the pairs side by side
    (``designer.search.engines.ends``). Meeting K, the first verified level; maximizing, the best.
    Complete: every pair proved that nothing (better) exists."""
    from designer.search.engines.ends import solve_pairs

    best, complete, skipped = solve_pairs(search, goal, budget)
    return StageResult(best, complete, skipped=skipped)


@timed("sat loop")
def refute_stage(search: Search, goal: Goal, budget: Budget) -> StageResult:
    """The counterexample loop on an incremental SAT solver (``designer.search.engines.refute``),
    once per start and goal pair, the pairs side by side. Meeting K, the first verified level;
    maximizing, the best. Complete: every pair proved that nothing (better) exists. Skipped, and
    said so, for a request it does not serve."""
    from designer.search.engines.refute import solve

    best, complete, skipped = solve(search, goal, budget)
    return StageResult(best, complete, skipped=skipped)
