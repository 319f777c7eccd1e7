"""The counterexample loop as an engine: proofs by refutation (``designer.models.refute``).

A request that leaves its ends to choose is posed once per start and goal pair (one of each set
of mirror images, ``symmetry.end_pairs``), one incremental SAT solver per pair, the pairs side
by side on processes: the lanes of ``designer.search.engines.ends``, with this loop in place of
the CP-SAT model. A room is posed once, its doors' routes checked on one set of rocks.

Meeting K, the first verified level ends the search; every pair proven empty proves the request
infeasible. Maximizing, each pair's solver keeps every clause it learned as its floor rises above
each level it verifies, until it proves nothing better is left in the pair.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from designer.analysis import bounds
from designer.core.budget import Budget
from designer.core.request_kinds import request_kind
from designer.core.terrain import Cell
from designer.search.engines.ends import PairResult, solve_pairs
from designer.search.goal import Goal

if TYPE_CHECKING:
    from designer.core.level import Level
    from designer.core.request import LayoutRequest
    from designer.search.result import Design
    from designer.search.state import Search

#: The stage's name, in the generator record, the stage timings and the progress.
STAGE = "sat loop"


def declines(search: Search, goal: Goal) -> str | None:
    """Why the loop cannot serve the search (None: it can)."""
    from designer.models.refute import declines as model_declines

    request = search.request
    reason = model_declines(request)
    if reason is None and not request_kind(request).maximizes_by_proof and goal.maximizing:
        reason = "it does not maximize a room's routes"
    if reason is None and goal.objective != "stops":
        reason = "it does not count choices"
    return reason


def wins_proofs(request: LayoutRequest) -> bool:
    """Whether the loop is where a proof of ``request`` should come from (``auto``'s, and a
    record's on a cluster): it serves the request, on a walled grid (a frame or a template: on
    open grids its clauses run long) of at most ``REFUTE_CELLS`` cells, with compiled kernels (on
    their Python twin 7x7 K=15 took 59 s)."""
    from designer.core import kernels
    from designer.models.refute import declines as model_declines
    from designer.search.tuning import REFUTE_CELLS

    return (
        request.height * request.width <= REFUTE_CELLS
        and (request.frame or request.template is not None)
        and kernels.implementation() == "compiled"
        and model_declines(request) is None
    )


def proof_detail(request) -> str:
    """What a proof of the loop covered, for the message that says the request is infeasible."""
    from designer.models.symmetry import end_pairs

    return request_kind(request).proof_text(request, lambda: len(end_pairs(request)))


def solve(search: Search, goal: Goal, budget: Budget) -> tuple[Design | None, bool, str | None]:
    """(the best verified design, whether the loop proved its answer, why it could not run)."""
    reason = declines(search, goal)
    if reason is not None:
        return None, False, f"{STAGE}: {reason}"
    request = search.request
    if request.is_room:
        search.progress.update(phase=STAGE)
        routes = [
            (request.door(band.a), request.door(band.b), band.floor) for band in request.route_bands
        ]
        result = refute(search, goal, budget, routes)
        return result.design, result.complete, None
    return solve_pairs(search, goal, budget, pose_pair, STAGE)


def pose_pair(
    search: Search,
    goal: Goal,
    budget: Budget,
    pair: tuple[Cell, Cell],
    known: int | None,
    workers: int,
    label: str,
) -> PairResult:
    """One start and goal pair: a level of at least K stops, or, maximizing, the best above
    ``known`` (the best so far elsewhere), K lifted by the parity bound."""
    request = search.request
    start, end = pair
    floor = request.min_stops if known is None else known + 1
    sub = replace(request, start=start, goal=end)
    return refute(
        search,
        goal,
        budget,
        [(start, end, bounds.least_possible(sub, floor))],
        lift=lambda stops: bounds.least_possible(sub, stops),
    )


def refute(
    search: Search,
    goal: Goal,
    budget: Budget,
    routes: list[tuple[Cell, Cell, int]],
    lift=lambda stops: stops,
) -> PairResult:
    """The loop on one solver: meeting K, the first level it verifies; maximizing, every level
    it verifies raises the floor above it (``lift``: the least min stops possible from there),
    until no layout is left (complete) or time is up."""
    from designer.models.refute import Refuter

    request = search.request
    rejected = search.rejected
    best: Design | None = None
    with Refuter(request, routes) as refuter:
        with search.lock:
            ends = (routes[0][0], routes[0][1])
            for level in list(search.excluded):
                if (level.start, level.goal) == ends:
                    refuter.exclude(level.terrain)
        while True:
            outcome = refuter.run(budget)
            if outcome.verdict != "witness":
                return PairResult(
                    best, outcome.verdict == "proof", rejected=search.rejected - rejected
                )
            assert outcome.level is not None  # a witness is a level
            design = search.verify(outcome.level, STAGE)
            if design is None:  # cannot happen unless the checker and the analysis disagree
                refuter.exclude(outcome.level.terrain)
                continue
            if not goal.maximizing:
                return PairResult(design, True, rejected=search.rejected - rejected)
            if best is None or design.min_stops > best.min_stops:
                best = design
                search.seen(design.min_stops)
            refuter.raise_floor(lift(design.min_stops + 1))


# --- the pairs as shards of an executor (a dask cluster: designer.studies.records) ----------


def pair_shard(job: tuple) -> tuple:
    """One start and goal pair of a request, as a shard (a plain function of a picklable job:
    request, pair, floor, deadline in wall-clock time): the loop above ``floor``, its floor raised
    above each level it finds on the same solver. Returns (the best as (terrain, start, goal,
    stops), or None) and whether the pair is proven to hold nothing better."""
    from designer.analysis.classify import classify
    from designer.models.refute import Refuter

    request, (start, end), floor, deadline = job
    sub = replace(request, start=start, goal=end)
    budget = Budget(max(0.0, deadline - time.time()))
    best = None
    with Refuter(request, [(start, end, bounds.least_possible(sub, floor))]) as refuter:
        while True:
            outcome = refuter.run(budget)
            if outcome.verdict != "witness":
                return best, outcome.verdict == "proof"
            assert outcome.level is not None  # a witness is a level
            stops = classify(outcome.level).min_stops
            assert stops is not None  # a witness is strongly solvable
            best = (outcome.level.terrain, start, end, stops)
            refuter.raise_floor(bounds.least_possible(sub, stops + 1))


def best_on(
    executor, request: LayoutRequest, floor: int, budget: Budget
) -> tuple[Level | None, bool]:
    """Every start and goal pair of ``request`` as a shard on ``executor``: the most stops of at
    least ``floor`` found (a level for the caller to verify, or None), and whether every pair was
    proven to hold nothing better."""
    from designer.models.symmetry import end_pairs

    deadline = budget.wall_deadline()
    best, proven = None, True

    def take(job, result) -> None:
        nonlocal best, proven
        found, complete = result
        proven = proven and complete
        if found is not None and (best is None or found[3] > best[3]):
            best = found

    executor.run(
        pair_shard, [(request, pair, floor, deadline) for pair in end_pairs(request)], take
    )
    return (None if best is None else request.level(best[0], best[1], best[2])), proven
