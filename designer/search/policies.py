"""The policies: which stages run, in what order, with what share of the time left, for each method
(``POLICIES``, by name; ``designer.search.methods`` lists them with the generators). The router,
``designer.search.design.design``, picks one and hands it a ``Search``."""

from __future__ import annotations

from designer.core.errors import RequestError
from designer.search.engines import anneal, endpoints, opengrid
from designer.search.goal import Goal
from designer.search.model_stages import ends_model_stage, model_stage, refute_stage
from designer.search.race import (
    beside_model,
    climb_for_more,
    climb_then_anneal,
    maximize_beside_model,
    meet_beside_model,
)
from designer.search.reach import (
    ONE_LAYOUT,
    exhaustive_detail,
    exhaustive_fits,
    proof_within_reach,
    refutes,
)
from designer.search.result import Design
from designer.search.stages import (
    band_stage,
    choices_stage,
    climb_stage,
    endpoints_stage,
    exhaustive_stage,
    open_grid_stage,
    room_choices_stage,
    sample_stage,
)
from designer.search.state import Search
from designer.search.tuning import (
    CHOICES_FLOOR_SHARE,
    CLIMB_SHARE,
    CLIMB_SHARE_BEFORE_PROOF,
    MAXIMIZE_BESIDE_MODEL_CELLS,
    ROOM_CHOICES_ROUND_SHARE,
    ROOM_CHOICES_STALL_SHARE,
    SEARCH_SHARE_WITHOUT_PROOF,
    STALL_MIN_SECONDS,
)


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
            raise RequestError(
                "{min_choices} and {maximize_choices} need the compiled kernels and no snow to "
                "place (the chains that count choices)"
            )
        return maximize_with_stages(search) if goal.maximizing else meet_with_stages(search)
    if not search.pool:
        search.absorb(sample_stage(search, Goal.maximize()))
    if search.pool and search.pool[0][0] < request.min_stops:  # not in the band yet
        search.absorb(band_stage(search, Goal.meet(request.min_stops), budget.share(CLIMB_SHARE)))
    if goal.objective == "stops" and request.min_choices is not None:
        # a floor on options is a wall to a chain that counts stops: reach it first
        search.absorb(
            choices_stage(
                search, Goal.meet(request.min_choices, "options"), budget.share(CHOICES_FLOOR_SHARE)
            )
        )
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
        raise RequestError(
            "{unique} does not go with doors: a room's searches count stops or options"
        )
    floors = Goal.meet(request.room_target())
    if not search.pool:
        search.absorb(sample_stage(search, Goal.maximize()))
    stall = max(STALL_MIN_SECONDS, ROOM_CHOICES_STALL_SHARE * budget.time_limit)
    again = False
    # the chains; without them, climbs, again from fresh samples when one stalls
    while not budget.expired():
        if again:
            search.absorb(sample_stage(search, Goal.maximize(), fresh=True))
        if search.pool and search.pool[0][0] < request.room_target():
            search.absorb(band_stage(search, floors, budget.share(CLIMB_SHARE)))
        if anneal.applies(request):
            found = search.absorb(
                choices_stage(search, goal, budget.share(ROOM_CHOICES_ROUND_SHARE), from_pool=again)
            )
        else:
            found = search.absorb(
                room_choices_stage(search, goal, budget, stall=stall, from_pool=again)
            )
        if found is not None and not goal.maximizing:
            return found
        again = True
    if goal.maximizing and search.best is not None:
        return search.finish_maximize(proven=False)
    raise search.timed_out()


def meet_with_stages(search: Search) -> Design:
    """``auto``, meeting K: the cheapest stage that finds a level; then a proof, or the model."""
    request, goal, budget = search.request, search.goal, search.budget
    if endpoints.fixed_terrain(request) is not None:
        return one_layout(search)
    if opengrid.applies(request):  # random layouts of a few rocks on a big grid are rarely strong
        found = search.absorb(
            open_grid_stage(search, goal, budget.share(SEARCH_SHARE_WITHOUT_PROOF))
        )
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
        detail = exhaustive_detail(result.layouts)
    else:
        result = model_stage(search, goal, budget)
        detail = ""
    found = search.absorb(result)
    if found is not None:
        return found
    raise search.infeasible(detail) if result.complete else search.timed_out()


def maximize_with_stages(search: Search) -> Design:
    """``auto --maximize``: the most stops the time allows, proven optimal where a stage can."""
    request, goal, budget = search.request, search.goal, search.budget
    if endpoints.fixed_terrain(request) is not None:
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
        return search.finish_maximize(
            proven=result.complete, searched=result.layouts if result.complete else None
        )
    raise (
        search.infeasible(exhaustive_detail(result.layouts))
        if result.complete
        else search.timed_out()
    )


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
        raise RequestError(
            f"{{method}} sat cannot serve this request: {reason} ({{method}} auto can)"
        )
    return model_only(search, refute_stage, proof_detail(search.request))


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
