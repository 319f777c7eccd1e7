"""The CP-SAT model split by its ends: one sub-request per start and goal pair.

A request that leaves the start and the goal to choose is the union of its sub-requests with
both ends pinned (``symmetry.end_pairs``: one pair of each set of mirror images). Pinned ends fold
into constants when the model is built, and a small room's proof split that way finishes where
the whole model's does not: 8x8 with a frame has no level of 21 stops, proven pair by pair,
where the whole model proves nothing in 10 minutes (``docs/model.md``).

The pairs are independent, so they run side by side: one search on one CP-SAT worker per core,
each in a forked process of its own on Linux (a CP-SAT search must stay in its process's main
thread), one after another with every worker elsewhere. Every sub-model holds its floor as a
constraint: K, or, maximizing, more than the best level verified so far (shared between the
processes, and lifted by the parity bound). Meeting K, the pairs' results are taken in the pairs'
order, whichever lane ends first: the level is the first pair's that has one, once every pair
before it is proven to have none, so a seed gives the same level however the lanes race (at the
time limit, the first pair's found so far). The processes end with the designer, however it
ends (``control.end_with_parent``), and stop at once when the search is over (a shared event).
A level a pair's search finds is verified there, once, and comes back as that design.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from designer.analysis import bounds
from designer.core.budget import Budget
from designer.core.control import Cancelled, end_with_parent, signals_held
from designer.core.terrain import Cell
from designer.search.executor import end_lanes, lane_result
from designer.search.goal import Goal

if TYPE_CHECKING:
    from designer.search.result import Design
    from designer.search.state import Search

#: The stage's name, in the generator record and the stage timings.
STAGE = "cp-sat by ends"

#: How often the designer looks at the processes' results and its own budget (seconds).
POLL = 0.1


@dataclass(frozen=True)
class PairResult:
    """What one pair's search ended with: its best verified design, whether the model proved
    nothing (better) is left in the pair, and why it could not run."""

    design: Design | None
    complete: bool
    skipped: str | None = None
    rejected: int = 0  # candidates the verifier refused in the pair's process


def pose_pair(
    search: Search,
    goal: Goal,
    budget: Budget,
    pair: tuple[Cell, Cell],
    known: int | None,
    workers: int,
    label: str,
) -> PairResult:
    """Build and solve the sub-request of one start and goal pair: a level of at least K stops,
    or, maximizing, the best above ``known`` (the best so far elsewhere)."""
    from designer.models.cpsat import BuildTimedOut, build_model
    from designer.models.solve import solve_model

    request = search.request
    start, end = pair
    sub = replace(request, start=start, goal=end)
    floor = request.min_stops if known is None else known + 1
    if not request.portals:  # the parity bound reasons on plain slides
        floor = bounds.least_possible(sub, floor)
    if request.max_stops is not None and floor > request.max_stops:
        return PairResult(None, True)  # nothing above the best fits the band
    try:
        built = build_model(replace(sub, min_stops=floor), budget=budget, require_min_stops=True)
    except BuildTimedOut:
        return PairResult(
            None, False, f"{STAGE}: building the model of {label} did not fit in the time left"
        )
    with search.lock:
        for level in list(search.excluded):
            built.exclude(level.terrain, level.start, level.goal)
    rejected = search.rejected
    outcome = solve_model(
        built,
        budget,
        seed=search.seed,
        workers=workers,
        min_stops=floor,
        maximize=goal.maximizing,
        stops_of=lambda design: design.min_stops,
        accept=lambda terrain, s, e: search.verify(request.level(terrain, s, e), STAGE),
        on_stops=search.seen,
        floor_in_model=True,
    )
    return PairResult(outcome.found, outcome.complete, rejected=search.rejected - rejected)


def solve_pairs(
    search: Search, goal: Goal, budget: Budget, pose=None, name: str = "cp-sat"
) -> tuple[Design | None, bool, str | None]:
    """Every pair of the request, side by side on ``search.workers`` cores (see the module
    docstring): (the best verified design, whether every pair was proved, why a pair could not
    run). Meeting K, the first verified level ends the search. ``pose``: how one pair is posed
    and solved (``pose_pair``'s arguments and result; by default the CP-SAT model's), ``name``
    what the progress calls it (``designer.search.engines.refute`` poses the SAT loop)."""
    pose = pose or pose_pair
    from designer.models.symmetry import end_pairs

    pairs = end_pairs(search.request)
    lanes = min(search.workers, len(pairs)) if sys.platform.startswith("linux") else 1
    forked = lanes > 1
    best: Design | None = None

    def take(result: PairResult) -> bool:
        """Take one pair's result in; whether the search goes on."""
        nonlocal best
        design = result.design
        if forked:  # the rejections were counted in the pair's process
            with search.lock:
                search.rejected += result.rejected
            if design is not None:
                design = replace(design, generator=design.generator.but(rejected=search.rejected))
        if design is not None and (best is None or design.min_stops > best.min_stops):
            best = design
            search.seen(design.min_stops)
        return result.complete and (goal.maximizing or best is None)

    if lanes == 1:
        for number, pair in enumerate(pairs, 1):
            search.progress.update(phase=f"{name}, ends {number}/{len(pairs)}")
            known = best.min_stops if goal.maximizing and best is not None else None
            result = pose(
                search, goal, budget, pair, known, search.workers, f"pair {number} of {len(pairs)}"
            )
            if result.skipped or not take(result):
                return best, False, result.skipped
        return best, goal.maximizing or best is None, None

    context = multiprocessing.get_context("fork")
    stop = context.Event()  # set: every pair's search ends
    shared_best = context.Value("i", -1)  # the most stops verified so far (maximizing)
    # what the lanes read: the machine's clock, or each its own work
    lane_budget = budget.forked(stop)
    jobs = [(goal, number, pair, len(pairs)) for number, pair in enumerate(pairs, 1)]
    done = 0
    search.progress.update(phase=f"{name}, ends 0/{len(pairs)}, {lanes} at once")
    waiting: dict[int, PairResult] = {}  # meeting K: results not taken yet, by pair number
    taken = 0  # meeting K: pairs 1..taken are taken in, in order
    with ProcessPoolExecutor(
        lanes,
        mp_context=context,
        initializer=_start_lane,
        initargs=(search, lane_budget, shared_best, os.getpid(), pose),
    ) as pool:
        futures: set = set()
        numbers: dict = {}
        try:
            # A signal never raises inside the pool's own code here: raised in the middle of its
            # locks (submitting forks the lanes; waiting takes every future's lock), it left the
            # pool unable to shut its lanes down, and the designer waiting for them. Held, a
            # signal sets the cancel token all the same (``cancel_on_signals``), the loop sees it
            # within POLL, and the lanes are ended before it is raised.
            with signals_held() as arrived:
                numbers = {pool.submit(_lane_job, job): job[1] for job in jobs}
                futures = set(numbers)
                going, skipped = not arrived, None
                while futures and going:
                    finished, futures = wait(futures, timeout=POLL, return_when=FIRST_COMPLETED)
                    for future in finished:
                        result = lane_result(future, arrived)
                        done += 1
                        if not goal.maximizing:
                            waiting[numbers[future]] = result
                            continue
                        # every result is taken in
                        going = take(result) and going and not result.skipped
                        skipped = skipped or result.skipped
                        if best is not None:
                            with shared_best.get_lock():
                                shared_best.value = max(shared_best.value, best.min_stops)
                    while going and taken + 1 in waiting:  # meeting K: in the pairs' order
                        taken += 1
                        result = waiting.pop(taken)
                        going = take(result) and not result.skipped
                        skipped = skipped or result.skipped
                    if finished:
                        search.progress.update(
                            phase=f"{name}, ends {done}/{len(pairs)}, {lanes} at once"
                        )
                    if budget.cancelled() or arrived:
                        going = False
            if arrived:
                raise Cancelled(arrived[0])
            complete = going and not futures
            if best is None and waiting:  # the time ran out before the pairs before them ended
                found = [waiting[n] for n in sorted(waiting) if waiting[n].design is not None]
                if found:
                    take(found[0])
        except BaseException:
            stop.set()
            end_lanes(pool)
            raise
        finally:
            stop.set()  # the searches still running end at their next check (every 50 ms)
            for future in futures:
                future.cancel()
    return best, complete and (goal.maximizing or best is None), skipped


_lane: dict[str, Any] = {}


def _start_lane(search: Search, budget: Budget, shared_best, parent: int, pose) -> None:
    """Called first in each forked process: what the pairs share (inherited, not pickled)."""
    from designer.search.state import Progress

    # Ctrl-C reaches the whole group: the designer ends them through the event
    end_with_parent(parent)
    search.progress = Progress()  # the designer's own progress is shown by the designer alone
    _lane.update(search=search, budget=budget, best=shared_best, pose=pose)


def _lane_job(job) -> PairResult:
    goal, number, pair, count = job
    budget: Budget = _lane["budget"]
    if budget.cancelled():
        return PairResult(None, False)
    known = _lane["best"].value if goal.maximizing else -1
    return _lane["pose"](
        _lane["search"],
        goal,
        budget,
        pair,
        known if known >= 0 else None,
        1,
        f"pair {number} of {count}",
    )
