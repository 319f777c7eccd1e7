"""The stages of a design, and what they share.

Every stage has one shape: ``stage(search, goal, budget) -> StageResult``. It reads the
``Search`` (``designer.search.state``: the request, the seed's random stream, the pool of good layouts, the best design so
far), searches within its ``budget``, passes every level it would hand back through the one
verifier (``Search.verify``), and returns what it found. It changes nothing the policy relies on:
the policy takes a result in with ``Search.absorb``, in plain sight.

- ``endpoints_stage``: the only layout a request allows, every start and goal tried (exact);
- ``sample_stage``: seeded random layouts in compiled batches;
- ``climb_stage``: neighbourhood search from the pool (``designer.search.engines.climb``), then exact
  neighbourhoods in tiny spaces;
- ``anneal_stage``: simulated annealing from the best layout (``designer.search.engines.anneal``);
- ``open_grid_stage``: annealing on compressed open grids (``designer.search.engines.opengrid``);
- ``exhaustive_stage``: every layout up to symmetry (``designer.search.engines.exhaustive``), a proof
  when it completes;
- ``band_stage`` and ``choices_stage``: for the choices along the solution, the climb to a
  layout in the stops band, then annealing chains that count choices from it;
- ``model_stage``: the CP-SAT model (``designer.models``), a proof when it completes;
- ``ends_model_stage``: the same model posed once per start and goal pair
  (``designer.search.engines.ends``), a proof when every pair completes;
- ``refute_stage``: the counterexample loop on an incremental SAT solver, once per pair
  (``designer.search.engines.refute``), a proof when every pair completes.
"""

from __future__ import annotations

import numpy as np

from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.request_kinds import request_kind
from designer.core.space import LayoutSpace
from designer.search.engines import anneal, endpoints, exhaustive, opengrid
from designer.search.engines.climb import climb, layout_scores
from designer.search.engines.sampling import batch_level, sample_for_request
from designer.search.goal import Goal
from designer.search.result import Design
from designer.search.state import Search, StageResult, timed
from designer.search.tuning import (
    DENSITIES,
    NEIGHBOURHOOD_RELEASE,
    NEIGHBOURHOOD_STALL_SHARE,
    POOL_SIZE,
    SAMPLE_BATCH,
    SAMPLE_BATCHES,
    STALL_MAX_SECONDS,
    STALL_MIN_SECONDS,
    STALL_SHARE,
)

# --- the stages ----------------------------------------------------------------------------------


@timed("endpoints")
def endpoints_stage(search: Search, goal: Goal, budget: Budget) -> StageResult:
    """The one layout the request allows (no rocks, no snow): every start and goal, in batches.
    Maximizing, every pair is tried and the best verified level returned; otherwise the first
    batch's. Complete when every pair was tried."""
    search.progress.update(phase="every start and goal")
    terrain = endpoints.fixed_terrain(search.request)
    assert terrain is not None  # asked only of a request with one layout
    found, complete = endpoints.search_endpoints(
        search.request, terrain, budget, search.excluded, first_only=not goal.maximizing
    )
    for stops, level in found:
        search.seen(stops)
        design = search.verify(level, "endpoints")
        if design is not None:
            return StageResult(design, complete)
    return StageResult(None, complete)


@timed("sampling")
def sample_stage(search: Search, goal: Goal, *, fresh: bool = False) -> StageResult:
    """Seeded random layouts in compiled batches, a fixed number of them (so that the same seed
    gives the same pool), more while none is admissible (up to half the time limit). Meeting K,
    the first verified level that meets it; the best few layouts become the pool (``fresh``: in
    place of the pool so far, for a search that starts again elsewhere)."""
    found, pool = _sample(search, goal, [] if fresh else list(search.pool))
    return StageResult(found, pool=tuple(pool))


def _sample(search: Search, goal: Goal, pool: list) -> tuple[Design | None, list]:
    search.progress.update(phase="sampling")
    request, budget = search.request, search.budget
    space = LayoutSpace.of(request)
    batch = 0
    while batch < SAMPLE_BATCHES or (
        not pool and budget.now() < budget.t0 + 0.5 * budget.time_limit
    ):
        density = DENSITIES[batch % len(DENSITIES)]
        batch += 1
        terrains, starts, goals = sample_for_request(search.rng, request, SAMPLE_BATCH, density)
        search.samples += SAMPLE_BATCH
        stops = layout_scores(space, terrains, starts, goals, goal.maximizing)
        candidates = np.flatnonzero(stops >= 0)
        candidates = candidates[np.argsort(-stops[candidates], kind="stable")]
        if not goal.maximizing:
            for k in candidates[stops[candidates] >= goal.target]:
                found = search.verify(batch_level(terrains, starts, goals, int(k)), "sampling")
                if found:
                    return found, pool
        for k in candidates[:POOL_SIZE]:
            pool.append((int(stops[k]), batch_level(terrains, starts, goals, int(k))))
        pool = sorted(pool, key=lambda item: -item[0])[:POOL_SIZE]
        if pool:
            search.seen(pool[0][0])
    return None, pool


@timed("climb")
def climb_stage(
    search: Search, goal: Goal, budget: Budget, *, restarts: bool = False
) -> StageResult:
    """Climb from the pool (then, in tiny spaces, search exact neighbourhoods around the best
    layout). Meeting K: the first verified level that meets it, or the best layout short of it
    at the head of the pool (the next stage's start). Maximizing: the best verified design; with
    ``restarts``, climb again from fresh samples each time a climb ends."""
    if not search.pool:
        return StageResult()
    search.progress.update(phase="climbing")
    request, pool, best = search.request, list(search.pool), None
    stall = min(STALL_MAX_SECONDS, max(STALL_MIN_SECONDS, STALL_SHARE * search.budget.time_limit))
    while not budget.expired():
        level, stops = climb(
            request,
            search.rng,
            [lv for _, lv in pool],
            budget,
            goal.target,
            search.excluded,
            on_best=search.seen,
            stall=stall,
        )
        if level is None:
            break
        stage = "climb"
        if exhaustive.applies(request) and not goal.met_by(stops):
            refined, refined_stops = _refine(search, goal, level, stops, budget)
            stage = "neighbourhood" if refined_stops > stops else stage
            level, stops = refined, refined_stops
        if goal.short(stops):
            return StageResult(best, pool=((stops, level), *pool))
        found = search.verify(level, stage)
        if found is None:
            continue
        pool.insert(0, (stops, level))
        if not goal.maximizing:
            return StageResult(found, pool=tuple(pool))
        if best is None or found.min_stops > best.min_stops:
            best = found
        if not restarts or budget.expired():  # no time left to climb again: no fresh samples either
            break
        _, pool = _sample(search, goal, [])  # climb again from fresh samples; the best is kept
        search.progress.update(phase="climbing")
    return StageResult(best, pool=tuple(pool))


def _refine(
    search: Search, goal: Goal, level: Level, stops: int, budget: Budget
) -> tuple[Level, int]:
    """Exact neighbourhoods: release a few rocks of the best layout and place them again in every
    possible way, with every start and goal; move on ties, stop after a long stall."""
    search.progress.update(phase="neighbourhood search")
    last_gain = budget.now()
    stall = min(
        2 * STALL_MAX_SECONDS,
        max(STALL_MIN_SECONDS, NEIGHBOURHOOD_STALL_SHARE * search.budget.time_limit),
    )
    while budget.now() < min(budget.deadline, last_gain + stall) and not goal.met_by(stops):
        release = int(search.rng.choice(NEIGHBOURHOOD_RELEASE))
        round_budget = budget.until(min(budget.deadline, last_gain + stall))
        result = exhaustive.search_around(
            search.request,
            level,
            release,
            stops,
            round_budget,
            search.rng,
            maximizing=goal.maximizing,
        )
        if result.level is None or result.level in search.excluded:
            continue
        if result.best > stops:
            last_gain = budget.now()
            search.seen(result.best)
        level, stops = result.level, result.best
    return level, stops


@timed("open grid")
def open_grid_stage(search: Search, goal: Goal, budget: Budget) -> StageResult:
    """A few rocks on a large open grid (``designer.search.engines.opengrid``): annealing on compressed
    grids, one chain per worker; the best level, verified."""
    search.progress.update(phase="open-grid annealing")
    level, stops = opengrid.search(
        search.request,
        search.rng,
        budget,
        search.workers,
        target=goal.target,
        exclude=search.excluded,
        on_best=search.seen,
    )
    if level is None or goal.short(stops):
        return StageResult()
    return StageResult(search.verify(level, "open grid"))


@timed("anneal")
def anneal_stage(
    search: Search, goal: Goal, budget: Budget, *, chains: int | None = None
) -> StageResult:
    """Simulated annealing from the best layout so far (``designer.search.engines.anneal``), one chain per
    worker (``chains``: fewer, when the model runs beside them). The best level, verified; meeting
    K and short of it, a better layout goes to the head of the pool (the model's hint)."""
    start = search.starting_layout()
    if start is None:
        return StageResult()
    stops, level = start
    search.progress.update(phase="annealing")
    found_level, found_stops = anneal.search(
        search.request,
        level,
        stops,
        search.rng,
        budget,
        chains or search.workers,
        target=goal.target,
        on_best=search.seen,
    )
    if goal.short(found_stops):
        return StageResult(
            pool=((found_stops, found_level), *search.pool)
            if found_level is not None and found_stops > stops
            else None
        )
    if found_level is None or found_level == level:
        return StageResult()
    return StageResult(search.verify(found_level, "anneal"))


@timed("exhaustive")
def exhaustive_stage(search: Search, goal: Goal, budget: Budget) -> StageResult:
    """Every layout up to symmetry (tiny spaces) for a level above the bar: K when meeting it (the
    first found will do), one more than the best so far when maximizing (the best found).
    Complete: none better (or none at all) exists."""
    search.progress.update(phase="exhaustive search")
    if goal.target is not None:  # meeting it
        bar = goal.target
    else:
        request = search.request
        floor = request_kind(request).floor(request)
        bar = search.best.min_stops + 1 if search.best else floor
    result = exhaustive.search(
        search.request,
        bar,
        budget,
        search.workers,
        executor=search.executor,
        on_best=search.seen,
        first_only=not goal.maximizing,
        maximizing=goal.maximizing,
    )
    design = None
    if result.level is not None:
        design = search.verify(result.level, "exhaustive")
        if design is None:  # cannot happen unless the kernels disagree with the analysis
            raise RuntimeError(
                f"exhaustive search returned a level that fails verification:\n{result.level}"
            )
    return StageResult(design, result.complete, result.layouts)


@timed("band")
def band_stage(search: Search, goal: Goal, budget: Budget) -> StageResult:
    """The climb (``designer.search.engines.climb``) from the pool to a layout of at least ``goal``'s K
    stops within the request's band and budgets, not verified: the start of chains that count
    choices, which the request's choice conditions are left to. It goes to the head of the pool."""
    if not search.pool:
        return StageResult()
    search.progress.update(phase="climbing")
    stall = min(STALL_MAX_SECONDS, max(STALL_MIN_SECONDS, STALL_SHARE * search.budget.time_limit))
    level, stops = climb(
        search.request,
        search.rng,
        [lv for _, lv in search.pool],
        budget,
        goal.target,
        search.excluded,
        on_best=search.seen,
        stall=stall,
    )
    if level is None:
        return StageResult()
    return StageResult(pool=((stops, level), *search.pool))


@timed("choices")
def choices_stage(
    search: Search, goal: Goal, budget: Budget, *, from_pool: bool = False
) -> StageResult:
    """Annealing chains (``designer.search.engines.anneal``) that keep only layouts meeting the request's
    band and choice conditions (``--min-choices``, ``--unique``) and score ``goal``'s objective
    (options along the printed solution, or stops), from the best layout so far or the head of
    the pool (``from_pool``: the pool's, a fresh start). The best level they find, verified;
    meeting a target, only one that reaches it."""
    start = search.pool[0] if from_pool and search.pool else search.starting_layout()
    if start is None:
        return StageResult()
    stops, level = start
    search.progress.update(
        phase="annealing for choices" if goal.objective != "stops" else "annealing"
    )
    found, score = anneal.search(
        search.request,
        level,
        stops,
        search.rng,
        budget,
        search.workers,
        target=goal.target,
        objective=goal.objective,
        on_best=search.seen if goal.objective == "stops" else None,
    )
    if goal.objective == "options":
        search.best_options_seen = max(search.best_options_seen, score)
    if (
        found is None
        or goal.short(score)
        or (search.best is not None and found == search.best.level)
    ):
        return StageResult()
    return StageResult(search.verify(found, "anneal"))


@timed("climb for choices")
def room_choices_stage(
    search: Search,
    goal: Goal,
    budget: Budget,
    *,
    stall: float | None = None,
    from_pool: bool = False,
) -> StageResult:
    """A room's climb that counts the options along every route (``designer.search.engines.rooms``), from
    the best layout so far or the head of the pool (``from_pool``: the pool's, a fresh start),
    every layout it keeps meeting each route's band: the chains that count choices score one
    start and goal. Meeting a target, the first verified level that reaches it; maximizing, the
    best, once the time is up or ``stall`` seconds pass without a better one."""
    start = search.pool[0] if from_pool and search.pool else search.starting_layout()
    if start is None:
        return StageResult()
    search.progress.update(phase="climbing for choices")
    level, score = climb(
        search.request,
        search.rng,
        [start[1]],
        budget,
        goal.target,
        search.excluded,
        objective=goal.objective,
        stall=stall,
    )
    if goal.objective == "options":
        search.best_options_seen = max(search.best_options_seen, score)
    if (
        level is None
        or goal.short(score)
        or (search.best is not None and level == search.best.level)
    ):
        return StageResult()
    return StageResult(search.verify(level, "climb"))
