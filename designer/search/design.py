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

A room (``LayoutRequest.is_room``) runs the same portfolio, each stage scoring all its routes at
once (``designer.search.engines.rooms``). Coins are placed on the level designed (``coins``).

Every candidate is re-checked by ``designer.analysis`` (networkx: strong, reversible, min stops
from our own solver). One that fails is excluded from the model by a no-good cut and the search
goes on; ``Design.generator`` records the method asked for (``auto``: this portfolio; ``cpsat``:
the CP-SAT model alone, with nothing in front of it), the ``stage`` that produced the level, and
how many candidates were rejected. The time limit covers all the work, model building included:
a stage that cannot run in the time left is skipped, and the result says so.
"""

from __future__ import annotations

import os
import threading

from designer.analysis import bounds
from designer.analysis.classify import classify
from designer.core.budget import Budget
from designer.core.control import CancelToken
from designer.core.errors import DesignerError
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.search import coins, decisions, felt
from designer.search.engines import anneal, exhaustive, opengrid
from designer.search.engines.items import design_with_items
from designer.search.goal import Goal
from designer.search.images import with_images
from designer.search.result import Design, DesignFailed, infeasible_message
from designer.search.stages import (anneal_stage, band_stage, choices_stage, climb_stage, endpoints_stage,
                                    ends_model_stage, exhaustive_stage, model_stage, open_grid_stage,
                                    refute_stage, room_choices_stage, sample_stage)
from designer.search.state import Progress, Search, StageResult
from designer.search.tuning import (ANNEAL_SHARE_BEFORE_MODEL, CHOICES_FLOOR_SHARE, CLIMB_SHARE,
                                    CLIMB_SHARE_BEFORE_ANNEAL, CLIMB_SHARE_BEFORE_PROOF, EXHAUSTIVE_REACH,
                                    MAXIMIZE_BESIDE_MODEL_CELLS, MODEL_HEAD_START, MODEL_HEAD_START_CELLS,
                                    ROOM_CHOICES_ROUND_SHARE, ROOM_CHOICES_STALL_SHARE,
                                    SEARCH_SHARE_WITHOUT_PROOF, STALL_MIN_SECONDS)
from designer.search.validation import validate

__all__ = ["design", "lower_bound"]


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
    ``cancel``: a token that ends the work when set (``designer.core.control``), as the time's end."""
    validate(request)
    if request.coins or request.pinned_coins:
        return coins.design_with_coins(request, design, seed=seed, time_limit=time_limit, cancel=cancel, exclude=exclude,
                                       workers=workers, maximize=maximize, progress=progress, method=method,
                                       executor=executor, maximize_choices=maximize_choices, hint=hint)
    if request.difficulty is not None:  # asked in predicted difficulty (designer.search.felt)
        return felt.design_felt(request, design, seed=seed, time_limit=time_limit, cancel=cancel, workers=workers,
                                exclude=exclude, progress=progress, method=method, executor=executor,
                                maximize=maximize or maximize_choices)
    if method not in POLICIES:
        raise ValueError(f"method must be one of {tuple(POLICIES)}, not {method!r}")
    if maximize and maximize_choices:
        raise DesignerError("--maximize and --maximize-choices are two objectives: choose one, or see both at "
                            "once with designer pareto")
    if request.extras and not (method != "auto" and request.model_poses):
        # the plain level, then its items and portals (designer.search.engines.items); cpsat poses pinned portals
        return design_with_items(request, plain_design=design, seed=seed, time_limit=time_limit, workers=workers,
                                 maximize=maximize, maximize_choices=maximize_choices, exclude=exclude,
                                 progress=progress, method=method, cancel=cancel)
    if method == "cpsat-ends" and request.is_room:
        raise DesignerError("a room's doors are fixed, so there is one pair of ends to pose: use --method cpsat")
    if method != "auto" and (request.asks_for_choices or maximize_choices):
        raise DesignerError(f"--method {method} does not count choices: --min-choices, --unique and "
                            "--maximize-choices need --method auto")
    reason = None if request.portals else bounds.infeasible(request)  # the bounds reason on plain slides
    if reason:
        raise DesignFailed("infeasible", f"{infeasible_message(request)}: {reason}")
    if maximize_choices:
        goal = Goal.maximize("per_stop" if request.is_room else "options")
    elif maximize:
        goal = Goal.maximize()
    elif request.min_choices is not None:
        goal = Goal.meet(request.min_choices, "options")
    else:
        goal = Goal.meet(request.room_target() if request.is_room else request.min_stops)
    search = Search(request, goal, seed=seed, budget=Budget(time_limit, ended=cancel),
                    workers=workers or os.cpu_count() or 1, method=method, excluded=set(exclude), progress=progress or Progress(), executor=executor)
    if hint is not None:
        search.absorb(StageResult(pool=((classify(hint).min_stops or 0, hint),)))
    found = with_images(POLICIES[method], search, exclude)
    if decisions.wanted(request, method=method, maximizing=goal.maximizing):
        return decisions.improve(search, found)
    return found


# --- the policies: which stages run, in what order, with what share of the time left ----------

def auto(search: Search) -> Design:
    """``auto``: the portfolio."""
    if search.request.asks_for_choices or search.goal.objective != "stops":
        return choices_with_stages(search)
    return maximize_with_stages(search) if search.goal.maximizing else meet_with_stages(search)


def choices_with_stages(search: Search) -> Design:
    """``auto`` for the choices along the solution (``--min-choices``, ``--unique``,
    ``--maximize-choices``): a layout in the stops band first (sampling and the climb, nothing
    verified yet), then annealing chains that count choices from it, every layout they keep
    meeting the band and the choice conditions. The chains are compiled code that places no
    snow: without them, a request that only constrains choices runs the usual stages (the
    verifier checks the choices), and one that counts them is refused."""
    request, goal, budget = search.request, search.goal, search.budget
    if request.is_room:
        return room_choices(search)
    if not anneal.applies(request):
        if goal.objective == "options":
            raise DesignerError("--min-choices and --maximize-choices need the compiled kernels and no snow to "
                                "place (the chains that count choices)")
        return maximize_with_stages(search) if goal.maximizing else meet_with_stages(search)
    if not search.pool:
        search.absorb(sample_stage(search, Goal.maximize()))
    if search.pool and search.pool[0][0] < request.min_stops:  # not in the band yet
        search.absorb(band_stage(search, Goal.meet(request.min_stops), budget.share(CLIMB_SHARE)))
    if goal.objective == "stops" and request.min_choices is not None:
        # a floor on options is a wall to a chain that counts stops: reach it first
        search.absorb(choices_stage(search, Goal.meet(request.min_choices, "options"),
                                    budget.share(CHOICES_FLOOR_SHARE)))
        if search.best is not None and not goal.maximizing:
            return search.best
    found = search.absorb(choices_stage(search, goal, budget))
    if goal.maximizing and search.best is not None:
        return search.finish_maximize(proven=False)
    if found is not None and not goal.maximizing:
        return found
    raise search.timed_out()


def room_choices(search: Search) -> Design:
    """``auto`` for the choices along a room's routes: sampling and the climb to a layout that
    meets every route's floor, then the annealing chains that count the fewest options along any
    route (``choices_stage``; ``designer.search.engines.rooms`` says how), every layout they keep meeting
    every band. Without the chains (snow to place, or no compiled kernels), the climb that counts
    them (``room_choices_stage``), again from fresh samples each time it stalls, the best kept."""
    request, goal, budget = search.request, search.goal, search.budget
    if goal.objective == "stops":
        raise DesignerError("--unique does not go with doors: a room's searches count stops or options")
    floors = Goal.meet(request.room_target())
    if not search.pool:
        search.absorb(sample_stage(search, Goal.maximize()))
    stall = max(STALL_MIN_SECONDS, ROOM_CHOICES_STALL_SHARE * budget.time_limit)
    again = False
    while not budget.expired():  # the chains; without them, climbs, again from fresh samples when one stalls
        if again:
            search.absorb(sample_stage(search, Goal.maximize(), fresh=True))
        if search.pool and search.pool[0][0] < floors.target:
            search.absorb(band_stage(search, floors, budget.share(CLIMB_SHARE)))
        if anneal.applies(request):
            found = search.absorb(choices_stage(search, goal, budget.share(ROOM_CHOICES_ROUND_SHARE), from_pool=again))
        else:
            found = search.absorb(room_choices_stage(search, goal, budget, stall=stall, from_pool=again))
        if found is not None and not goal.maximizing:
            return found
        again = True
    if goal.maximizing and search.best is not None:
        return search.finish_maximize(proven=False)
    raise search.timed_out()


def meet_with_stages(search: Search) -> Design:
    """``auto``, meeting K: the cheapest stage that finds a level; then a proof, or the model."""
    request, goal, budget = search.request, search.goal, search.budget
    if exhaustive.fixed_terrain(request) is not None:
        return one_layout(search)
    if opengrid.applies(request):  # random layouts of a few rocks on a big grid are rarely strong
        found = search.absorb(open_grid_stage(search, goal, budget.share(SEARCH_SHARE_WITHOUT_PROOF)))
    else:
        found = search.absorb(sample_stage(search, goal))
    if found is None and refutes(search):
        return by_refutation(search)
    if found is None and beside_model(search):
        return meet_beside_model(search)
    if found is None:
        found = climb_then_anneal(search, budget, provable=proof_within_reach(search))
    if found is not None:
        return found
    if exhaustive_fits(search):  # the rest of the time: a proof either way
        result = exhaustive_stage(search, goal, budget)
        detail = _exhaustive_detail(result.layouts)
    else:
        result = model_stage(search, goal, budget)
        detail = ""
    found = search.absorb(result)
    if found is not None:
        return found
    raise search.infeasible(detail) if result.complete else search.timed_out()


def beside_model(search: Search) -> bool:
    """Whether ``auto`` poses the request to the model at once, beside the other stages: when
    the model is where a proof would come from (no exhaustive search can be expected to complete),
    the grid is no open one (its forked chains take every core) and there is a core to spare."""
    return (search.workers >= 2 and not opengrid.applies(search.request)
            and not (exhaustive.applies(search.request) and exhaustive_fits(search)))


def meet_beside_model(search: Search) -> Design:
    """``auto`` meeting K, as a portfolio: the model from now on, on one worker, beside the climb
    and the annealing (their usual shares of the time) on the other. The first verified level
    wins, whoever found it; a proof from the model (no level of K stops exists) ends both at once.
    When the other stages give up, the model goes on with every worker, from their best layout."""
    def climb_and_anneal(race: Budget) -> Design | None:
        return climb_then_anneal(search, race, chains=search.workers - 1)  # a core for the model

    result, aside = _beside_model(search, climb_and_anneal, first_wins=True)
    found = search.absorb(result)
    winners = [d for d in (aside, found) if d is not None]
    if winners:
        return min(winners, key=lambda d: d.generator.seconds)  # the first verified level
    raise search.infeasible() if result.complete else search.timed_out()


def maximize_beside_model(search: Search) -> Design:
    """``auto --maximize``, as a portfolio: the model from now on, beside the climb and the
    annealing (or climbs from fresh samples), each looking for more stops. What they verify
    raises the model's bar at once (its search stops and goes on above it); the model's proof
    that nothing is above the bar ends both, and the best level is then proven optimal."""
    def climb_and_anneal(race: Budget) -> None:
        climb_for_more(search, race, chains=search.workers - 1)  # a core for the model

    result, _ = _beside_model(search, climb_and_anneal, first_wins=False)
    search.absorb(result)
    if search.best is None:
        raise search.infeasible() if result.complete else search.timed_out()
    return search.finish_maximize(proven=result.complete)


def climb_then_anneal(search: Search, budget: Budget, *, provable: bool = False,
                      chains: int | None = None) -> Design | None:
    """Meeting K: the climb from the pool, then, when no proof is in reach, the annealing (``chains``
    of them), each with its share of ``budget``. The first verified level, or None."""
    if not search.pool:
        return None
    goal = search.goal
    found = search.absorb(climb_stage(search, goal, budget.share(CLIMB_SHARE_BEFORE_PROOF if provable
                                                                 else CLIMB_SHARE)))
    if found is None and not provable and anneal.applies(search.request):
        found = search.absorb(anneal_stage(search, goal, budget.share(ANNEAL_SHARE_BEFORE_MODEL), chains=chains))
    return found


def climb_for_more(search: Search, budget: Budget, *, chains: int | None = None) -> None:
    """Maximizing with no proof in reach: one short climb gives the annealing (``chains`` of
    them) a strong, reversible start, and it gets the rest; without it, the time is better spent
    on climbs from fresh samples."""
    if not search.pool:
        return
    goal = search.goal
    if anneal.applies(search.request):
        search.absorb(climb_stage(search, goal, budget.share(CLIMB_SHARE_BEFORE_ANNEAL)))
        search.absorb(anneal_stage(search, goal, budget.share(SEARCH_SHARE_WITHOUT_PROOF), chains=chains))
    else:
        search.absorb(climb_stage(search, goal, budget.share(SEARCH_SHARE_WITHOUT_PROOF), restarts=True))


def _beside_model(search: Search, other_stages, *, first_wins: bool) -> tuple[StageResult, Design | None]:
    """Run ``other_stages(race)`` in a helper thread and the model in this one (CP-SAT must
    search in the main thread to see Ctrl-C), on one cancellable budget: a proof from the model
    ends both; with ``first_wins``, so does a level from either side. The model runs on one worker
    until the other stages give up, then on every worker; maximizing, it follows their best.
    Returns the model's result and the level the other side won with (``first_wins``)."""
    race = search.budget.cancellable()  # cancelled: both sides stop
    given_up = threading.Event()
    side: dict[str, object] = {}

    def other() -> None:
        try:
            found = other_stages(race)
            if found is not None and first_wins:
                side["found"] = found
                race.cancel()
        except BaseException as exc:  # handed to the main thread, which raises it
            side["error"] = exc
            race.cancel()
        finally:
            given_up.set()

    helper = threading.Thread(target=other, name="climb and anneal", daemon=True)
    helper.start()
    result = StageResult()
    try:
        # A head start: what the climb meets at once never waits on loading OR-Tools and building the model,
        # whose Python holds the interpreter's lock; shorter on small grids, where the model often proves more.
        cells = search.request.height * search.request.width
        head_start = Budget(MODEL_HEAD_START * min(1.0, cells / MODEL_HEAD_START_CELLS))
        while not (race.cancelled() or given_up.is_set() or head_start.expired()):
            race.ended.wait(0.01)
        if not race.cancelled():
            result = model_stage(search, search.goal, race, narrow_until=given_up, follow_best=not first_wins)
        if result.complete or (first_wins and result.design is not None):
            race.cancel()
        helper.join()
    finally:
        if helper.is_alive():  # an error or a signal in this thread
            race.cancel()
            helper.join()
    if "error" in side:
        raise side["error"]
    return result, side.get("found")


def maximize_with_stages(search: Search) -> Design:
    """``auto --maximize``: the most stops the time allows, proven optimal where a stage can."""
    request, goal, budget = search.request, search.goal, search.budget
    if exhaustive.fixed_terrain(request) is not None:
        return one_layout(search)
    if opengrid.applies(request):
        search.absorb(open_grid_stage(search, goal, budget.share(SEARCH_SHARE_WITHOUT_PROOF)))
        return maximize_with_model(search)
    search.absorb(sample_stage(search, goal))
    if refutes(search):
        return by_refutation(search)
    if beside_model(search) and request.height * request.width <= MAXIMIZE_BESIDE_MODEL_CELLS:
        return maximize_beside_model(search)
    if search.pool and proof_within_reach(search):
        search.absorb(climb_stage(search, goal, budget.share(CLIMB_SHARE_BEFORE_PROOF)))
    else:
        climb_for_more(search, budget)
    if not exhaustive_fits(search):
        return maximize_with_model(search)
    while True:  # each round looks for a level better than the best so far
        result = exhaustive_stage(search, goal, budget)
        if search.absorb(result) is None:
            break
        if result.complete:
            return search.finish_maximize(proven=True, searched=result.layouts)
    if search.best is not None:
        return search.finish_maximize(proven=result.complete, searched=result.layouts if result.complete else None)
    raise search.infeasible(_exhaustive_detail(result.layouts)) if result.complete else search.timed_out()


def model_only(search: Search, stage=model_stage, detail: str = "") -> Design:
    """``cpsat``: the model alone, with nothing in front of it (``stage``: how it is posed)."""
    if search.goal.maximizing:
        return maximize_with_model(search, stage)
    result = stage(search, search.goal, search.budget)
    found = search.absorb(result)
    if found is not None:
        return found
    raise search.infeasible(detail) if result.complete else search.timed_out()


def model_by_ends(search: Search) -> Design:
    """``cpsat-ends``: the model alone, posed once per start and goal pair (``ends_model_stage``)."""
    from designer.models.symmetry import end_pairs

    pairs = len(end_pairs(search.request))
    detail = f" (the model proved it for each of the {pairs} start and goal pair{'s' if pairs != 1 else ''})"
    return model_only(search, ends_model_stage, detail)


def sat_only(search: Search) -> Design:
    """``sat``: the counterexample loop alone (``refute_stage``), once per start and goal pair."""
    from designer.search.engines.refute import declines, proof_detail

    reason = declines(search, search.goal)
    if reason is not None:
        raise DesignerError(f"--method sat cannot serve this request: {reason} (--method auto can)")
    return model_only(search, refute_stage, proof_detail(search.request))


def refutes(search: Search) -> bool:
    """Whether ``auto`` poses its proof to the counterexample loop in place of the CP-SAT model:
    where the loop wins (``refute.wins_proofs``: small walled grids, compiled kernels), it serves
    the goal, and no exhaustive search is in reach."""
    from designer.search.engines.refute import declines, wins_proofs

    return (wins_proofs(search.request) and not exhaustive_fits(search)
            and declines(search, search.goal) is None)


def by_refutation(search: Search) -> Design:
    """``auto`` on a small grid, after sampling: the counterexample loop with the rest of the time.
    Meeting K, it finds a level or proves there is none; maximizing, it raises its floor above
    the best pair by pair until it proves nothing better is left. A climb first only delayed it
    (docs/model.md, "Proofs by refutation")."""
    from designer.search.engines.refute import proof_detail

    return model_only(search, refute_stage, proof_detail(search.request))


def maximize_with_model(search: Search, stage=model_stage) -> Design:
    """The rest of the time to the model: a better level than the best so far, or the proof
    that there is none."""
    result = stage(search, search.goal, search.budget)
    search.absorb(result)
    if search.best is None:
        raise search.infeasible() if result.complete else search.timed_out()
    return search.finish_maximize(proven=result.complete)


def one_layout(search: Search) -> Design:
    """A request that leaves only the start and goal to choose: the endpoints stage decides it."""
    result = endpoints_stage(search, search.goal, search.budget)
    found = search.absorb(result)
    if found is None:
        raise search.infeasible(ONE_LAYOUT) if result.complete else search.timed_out()
    if not search.goal.maximizing:
        return found
    return search.finish_maximize(proven=result.complete)


#: The policies, by method name (``designer.search.methods`` lists them with the generators).
POLICIES = {"auto": auto, "cpsat": model_only, "cpsat-ends": model_by_ends, "sat": sat_only}

ONE_LAYOUT = " (every start and goal tried on the only layout the request allows)"


def _exhaustive_detail(layouts: int) -> str:
    return f" (exhaustive search of {layouts:,} layouts up to symmetry)"


def proof_within_reach(search: Search) -> bool:
    """Whether an exhaustive search could complete in the time a short climb would leave it."""
    return exhaustive.applies(search.request) and (
        exhaustive.estimated_seconds(search.request, search.workers)
        <= (1 - CLIMB_SHARE_BEFORE_PROOF) * search.budget.left())


def exhaustive_fits(search: Search) -> bool:
    """Whether a complete search of the space can be expected within ten times the time left."""
    if not exhaustive.applies(search.request):
        return False
    return exhaustive.estimated_seconds(search.request, search.workers) <= EXHAUSTIVE_REACH * search.budget.left()


def lower_bound(request: LayoutRequest, *, seed: int = 0, time_limit: float = 10.0, workers: int | None = None,
                progress: Progress | None = None, cancel: CancelToken | None = None) -> Design | None:
    """The best verified level that sampling and the climb (with restarts) find within the time
    limit, with no proof: the first stage of ``designer.studies.records``, which proves on its own."""
    validate(request)
    goal = Goal.maximize()
    search = Search(request, goal, seed=seed, budget=Budget(time_limit, ended=cancel),
                    workers=workers or os.cpu_count() or 1, method="auto", excluded=set(), progress=progress or Progress())
    search.absorb(sample_stage(search, goal))
    if search.pool:
        search.absorb(climb_stage(search, goal, search.budget.share(1.0), restarts=True))
    return search.best
