"""The designer: pose a request, search, verify, and never hand back a level that fails.

A design runs as a portfolio, every random choice drawn from the seed:

0. **bounds** (``designer.analysis.bounds``): cheap theorems that prove some requests infeasible at
   once; and **endpoints**, when the request leaves no layout to choose (no rocks, no snow):
   every start and goal tried in one compiled pass, which is exact.
1. **sampling**: seeded random layouts, classified in compiled batches. For small targets
   (K up to about 20 on 12x12) the fastest way to a level; otherwise it seeds the climb.
2. **climb**: neighbourhood search from the best samples (``designer.search.engines.climb``): every one-cell
   change classified in one batch, the best taken. It meets most targets within a second and
   gives CP-SAT a strong hint. In tiny layout spaces it goes on with exact neighbourhoods: a
   few rocks released and placed again in every possible way (``exhaustive.search_around``).
2b. **open grid** (a rock budget on a large grid with no frame: ``designer.search.engines.opengrid``): in place
   of sampling and the climb, simulated annealing on compressed grids, where only the order of the rocks'
   rows and columns and the gaps between them count; the best is expanded back to the full grid.
2c. **anneal** (``designer.search.engines.anneal``, compiled kernels, no snow to place): where no proof is in
   reach, simulated annealing from the climb's best layout, one random change at a time, one
   chain per worker. Maximizing, it gets most of the time after one short climb (in place of
   climbs from fresh samples); meeting a target the climb missed, half the time left.
3. **exhaustive** (tiny layout spaces: no frame or pinned ends, a rock budget, no snow): every
   layout up to symmetry, in compiled code; when it completes it proves its best optimal, or
   the request infeasible. Otherwise **cp-sat**: the model of ``designer.models.cpsat`` (strong
   solvability, reversibility and exact min stops are all inside it), solved with the rest of the
   time, the seed and the workers given. It maximizes the goal's stops from a hint (the best
   layout so far, or the empty room) and stops at the first level of K stops, so CP-SAT's own
   neighbourhood search climbs; an optimum below K proves the request infeasible. With
   ``maximize`` it looks for a level better than the best so far, so that "none exists" proves
   that one optimal.

Where no exhaustive search is in reach, with two workers or more, stages 2 and 3 run at once
(``meet_beside_model``, ``maximize_beside_model``): the model from the first second (after the
climb's head start) on one worker, the climb and the annealing beside it; meeting K, the first
verified level wins; maximizing, what they verify raises the model's bar at once; a proof ends
both, and the model gets every worker when the others give up.

A room (``designer.core.request_kinds.ROOM_REQUEST``) runs the same portfolio, each stage scoring all its routes at
once (``designer.search.engines.rooms``). Coins are placed on the level designed (``coins``).

Every candidate is re-checked by ``designer.analysis`` (networkx: strong, reversible, min stops
from our own solver). One that fails is excluded from the model by a no-good cut and the search
goes on; ``Design.generator`` records the method asked for (``auto``: this portfolio; ``cpsat``:
the CP-SAT model alone, with nothing in front of it), the ``stage`` that produced the level, and
how many candidates were rejected. The time limit covers all the work, model building included:
a stage that cannot run in the time left is skipped, and the result says so.

This module routes a request (``design``); the policies are ``designer.search.policies``, the
race beside the model ``designer.search.race``, and whether a proof is in reach
``designer.search.reach``.
"""

from __future__ import annotations

import os

from designer.analysis import bounds
from designer.analysis.classify import classify
from designer.core.budget import Budget
from designer.core.control import CancelToken
from designer.core.errors import RequestError
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.search import coins, decisions, felt
from designer.search.engines.items import design_with_items
from designer.search.goal import Goal
from designer.search.images import with_images
from designer.search.job import DesignJob
from designer.search.policies import POLICIES
from designer.search.result import Design, DesignFailed, infeasible_message
from designer.search.stages import (
    climb_stage,
    sample_stage,
)
from designer.search.state import Progress, Search, StageResult
from designer.search.validation import validate

__all__ = ["design", "lower_bound", "run"]


def design(
    request: LayoutRequest,
    *,
    seed: int = 0,
    time_limit: float = 60.0,
    workers: int | None = None,
    maximize: bool = False,
    exclude: tuple[Level, ...] = (),
    progress: Progress | None = None,
    method: str = "auto",
    executor=None,
    maximize_choices: bool = False,
    hint: Level | None = None,
    cancel: CancelToken | None = None,
) -> Design:
    """A verified strong, reversible level meeting ``request``, or DesignFailed saying why; met with
    ``auto``, then raised in decisions (``designer.search.decisions``); asked in predicted difficulty,
    by ``designer.search.felt``; with coins, by ``designer.search.coins``. ``method``: ``auto`` (the
    portfolio), ``cpsat`` (the CP-SAT model alone) or ``cpsat-ends`` (the model alone, once per start
    and goal pair). ``exclude``: levels not to return again (packs). ``maximize``: the most min stops
    found in the time limit, the record saying whether proven optimal; ``maximize_choices``: the most
    options along the solution, every constraint kept. ``executor`` runs the exhaustive search's
    shards (``designer.search.executor``). ``hint``: a layout to start from (verified like any other).
    ``cancel``: a token that ends the work when set (``designer.core.control``), as the time's end.
    The settings are one ``DesignJob`` (``designer.search.job``), checked once when it is built;
    ``run`` designs one."""
    return run(
        DesignJob(
            request,
            seed=seed,
            time_limit=time_limit,
            workers=workers,
            method=method,
            maximize=maximize,
            maximize_choices=maximize_choices,
            exclude=exclude,
            hint=hint,
            progress=progress,
            executor=executor,
            cancel=cancel,
        )
    )


def run(job: DesignJob) -> Design:
    """The design of ``job``, whose request was checked when the job was built: routed to the
    coins, difficulty or items wrapper, each of which runs this again for the jobs it derives
    (``DesignJob.but``), or to the method's policy."""
    request, method = job.request, job.method
    if request.coins or request.pinned_coins:
        return coins.design_with_coins(job, run)
    if request.difficulty is not None:  # asked in predicted difficulty (designer.search.felt)
        return felt.design_felt(job, run)
    if method not in POLICIES:
        raise ValueError(f"method must be one of {tuple(POLICIES)}, not {method!r}")
    if job.maximize and job.maximize_choices:
        raise RequestError(
            "{maximize} and {maximize_choices} are two objectives: choose one, or see both at "
            "once with designer pareto"
        )
    if request.extras and not (method != "auto" and request.model_poses):
        # the plain level, then its items and portals (designer.search.engines.items); cpsat poses
        # pinned portals
        return design_with_items(job, plain_design=run)
    kind = request_kind(request)
    if method == "cpsat-ends" and not kind.poses_ends:
        raise RequestError(
            "a room's doors are fixed, so there is one pair of ends to pose: use {method} cpsat"
        )
    if method != "auto" and (request.asks_for_choices or job.maximize_choices):
        raise RequestError(
            f"{{method}} {method} does not count choices: {{min_choices}}, {{unique}} and "
            "{maximize_choices} need {method} auto"
        )
    # the bounds reason on plain slides
    reason = None if request.portals else bounds.infeasible(request)
    if reason:
        raise DesignFailed("infeasible", f"{infeasible_message(request)}: {reason}")
    if job.maximize_choices:
        goal = Goal.maximize(kind.choice_objective("options"))
    elif job.maximize:
        goal = Goal.maximize()
    elif request.min_choices is not None:
        goal = Goal.meet(request.min_choices, "options")
    else:
        goal = Goal.meet(kind.target(request))
    search = Search(
        request,
        goal,
        seed=job.seed,
        budget=Budget(job.time_limit, ended=job.cancel),
        workers=job.workers or os.cpu_count() or 1,
        method=method,
        excluded=set(job.exclude),
        progress=job.progress or Progress(),
        executor=job.executor,
    )
    if job.hint is not None:
        search.absorb(StageResult(pool=((classify(job.hint).min_stops or 0, job.hint),)))
    found = with_images(POLICIES[method], search, job.exclude)
    if decisions.wanted(request, method=method, maximizing=goal.maximizing):
        return decisions.improve(search, found)
    return found


def lower_bound(
    request: LayoutRequest,
    *,
    seed: int = 0,
    time_limit: float = 10.0,
    workers: int | None = None,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Design | None:
    """The best verified level that sampling and the climb (with restarts) find within the time
    limit, with no proof: the first stage of ``designer.studies.records``, which proves on its own."""
    validate(request)
    goal = Goal.maximize()
    search = Search(
        request,
        goal,
        seed=seed,
        budget=Budget(time_limit, ended=cancel),
        workers=workers or os.cpu_count() or 1,
        method="auto",
        excluded=set(),
        progress=progress or Progress(),
    )
    search.absorb(sample_stage(search, goal))
    if search.pool:
        search.absorb(climb_stage(search, goal, search.budget.share(1.0), restarts=True))
    return search.best
