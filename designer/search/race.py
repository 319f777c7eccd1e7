"""The climb and the annealing, alone or beside the model: ``auto``'s race, where the CP-SAT model
searches in the main thread (to see Ctrl-C) and the other stages in a helper thread, on one
cancellable budget."""

from __future__ import annotations

import threading
from typing import Any

from designer.core.budget import Budget
from designer.search.engines import anneal, exhaustive, opengrid
from designer.search.model_stages import model_stage
from designer.search.reach import exhaustive_fits
from designer.search.result import Design
from designer.search.stages import anneal_stage, climb_stage
from designer.search.state import Search, StageResult
from designer.search.tuning import (
    ANNEAL_SHARE_BEFORE_MODEL,
    CLIMB_SHARE,
    CLIMB_SHARE_BEFORE_ANNEAL,
    CLIMB_SHARE_BEFORE_PROOF,
    MODEL_HEAD_START,
    MODEL_HEAD_START_CELLS,
    SEARCH_SHARE_WITHOUT_PROOF,
)


def climb_then_anneal(
    search: Search, budget: Budget, *, provable: bool = False, chains: int | None = None
) -> Design | None:
    """Meeting K: the climb from the pool, then, when no proof is in reach, the annealing (``chains``
    of them), each with its share of ``budget``. The first verified level, or None."""
    if not search.pool:
        return None
    goal = search.goal
    found = search.absorb(
        climb_stage(
            search, goal, budget.share(CLIMB_SHARE_BEFORE_PROOF if provable else CLIMB_SHARE)
        )
    )
    if found is None and not provable and anneal.applies(search.request):
        found = search.absorb(
            anneal_stage(search, goal, budget.share(ANNEAL_SHARE_BEFORE_MODEL), chains=chains)
        )
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
        search.absorb(
            anneal_stage(search, goal, budget.share(SEARCH_SHARE_WITHOUT_PROOF), chains=chains)
        )
    else:
        search.absorb(
            climb_stage(search, goal, budget.share(SEARCH_SHARE_WITHOUT_PROOF), restarts=True)
        )


def beside_model(search: Search) -> bool:
    """Whether ``auto`` poses the request to the model at once, beside the other stages: when
    the model is where a proof would come from (no exhaustive search can be expected to complete),
    the grid is no open one (its forked chains take every core) and there is a core to spare."""
    return (
        search.workers >= 2
        and not opengrid.applies(search.request)
        and not (exhaustive.applies(search.request) and exhaustive_fits(search))
    )


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


def _beside_model(
    search: Search, other_stages, *, first_wins: bool
) -> tuple[StageResult, Design | None]:
    """Run ``other_stages(race)`` in a helper thread and the model in this one (CP-SAT must
    search in the main thread to see Ctrl-C), on one cancellable budget: a proof from the model
    ends both; with ``first_wins``, so does a level from either side. The model runs on one worker
    until the other stages give up, then on every worker; maximizing, it follows their best.
    Returns the model's result and the level the other side won with (``first_wins``)."""
    race = search.budget.cancellable()  # cancelled: both sides stop
    assert race.ended is not None
    given_up = threading.Event()
    side: dict[str, Any] = {}

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
        # A head start: what the climb meets at once never waits on loading OR-Tools and building
        # the model,
        # whose Python holds the interpreter's lock; shorter on small grids, where the model often
        # proves more.
        cells = search.request.height * search.request.width
        head_start = Budget(MODEL_HEAD_START * min(1.0, cells / MODEL_HEAD_START_CELLS))
        while not (race.cancelled() or given_up.is_set() or head_start.expired()):
            race.ended.wait(0.01)
        if not race.cancelled():
            result = model_stage(
                search, search.goal, race, narrow_until=given_up, follow_best=not first_wins
            )
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
