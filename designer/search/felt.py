"""Levels asked in predicted difficulty (``LayoutRequest.difficulty``; ``make --curve-by
difficulty``): a level whose model-predicted difficulty (``designer.analysis.player``) is
within ``FELT_TOLERANCE`` of the target, its min stops still a guaranteed floor.

The difficulty of a level is no function of its min stops, but it rises with them. So the search
designs a level of K stops (a band of K and one more), predicts its difficulty, and moves K by
the gap: on framed 12x12 levels raised in decisions, the default player's difficulty rises about
4.7 points for each tenfold in K (2.35 at K = 2, 7.5 at K = 25), so K is scaled by
10^(gap / 4.7) (at least one stop); the first K is that line's for the target. A try that runs
out of its share of the time (a third of what is left) or proves its K infeasible lowers K,
unless a longer level was made already: then K was too short for what the level holds, and K
rises. Each try has a seed of its own (the request's seed, then seed + 7919, ...). A level
within half the tolerance ends the search at once. Otherwise the closest is tuned (``tune``: a
climb that toggles one free cell at a time, keeping the request met, toward the target, for
``FELT_STEPS`` layouts), and taken when within the tolerance. None within it: DesignFailed,
saying how close it came.

A level with items or portals (``LayoutRequest.extras``) is asked the same way, its difficulty
its own, mechanics included. A band too short for its items is not proven infeasible but runs
out its time, so a try of such a level takes at most ``EXTRAS_TRY_SECONDS``, and one that fails
before any level was made raises K. Its tuning keeps each item and portal mattering (the one
verifier checks each layout the climb keeps). Coins are placed after (``designer.search.coins``),
on the level asked here, and change no figure of its way to the exit; when placing them moves
rocks, the new level's difficulty is predicted again and kept only within the tolerance.

>>> first_stops(2.35), first_stops(7.5)
(2, 25)
>>> next_stops(10, 6.0, 5.0, floor=1, ceiling=40)
16
>>> next_stops(10, 4.0, 5.0, floor=1, ceiling=40)
6
"""

from __future__ import annotations

from dataclasses import replace

from designer.core.budget import Budget
from designer.core.errors import RequestError
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.search.job import DesignJob
from designer.search.result import Design, DesignFailed

#: How close the predicted difficulty must come to the target (a share of the target).
FELT_TOLERANCE = 0.15
#: Levels tried before the closest within the tolerance is taken.
FELT_TRIES = 12
#: Layouts the tuning climb tries (a budget of work): one free cell toggled at a time.
FELT_STEPS = 400
SEED_STEP = 7919
#: The most a try of a level with items or portals takes (seconds, or work under a budget of work):
#: such a level at a fitting length is made in under 2 s, and one too short for its items is not
#: proven so but runs out its time (measured: ``make --count 10 --curve-by difficulty --curve 3..8
#: --items 1``, seed 1: every try that succeeded took under 1.6 s; each that failed took its whole
#: share, 8.6 to 19.9 s).
EXTRAS_TRY_SECONDS = 5.0


def player_of(request: LayoutRequest):
    """The model's player a request asks its difficulty of (``--player``; the default's)."""
    from designer.analysis.player import DEFAULT, Player

    return Player.from_request(request.player) if request.player is not None else DEFAULT


def within_target(level, request: LayoutRequest) -> float | None:
    """``level``'s predicted difficulty for the request's player when it is within the
    tolerance of ``request.difficulty``; else None."""
    from designer.analysis.player import play

    assert request.difficulty is not None  # asked in predicted difficulty
    felt = play(level, player_of(request)).difficulty
    return felt if abs(felt - request.difficulty) <= FELT_TOLERANCE * request.difficulty else None


def share(request: LayoutRequest, left: float) -> float:
    """A try's share of the time ``left``: a third; a level with items or portals, at most
    ``EXTRAS_TRY_SECONDS``, as a band too short for them is not proven so but runs out its time.

    >>> share(LayoutRequest(items=1), 60.0), share(LayoutRequest(), 60.0)
    (5.0, 20.0)
    """
    return min(left / 3, EXTRAS_TRY_SECONDS) if request.extras else left / 3


def first_stops(target: float) -> int:
    """The min stops tried first for ``target``."""
    return max(1, round(2 * 10 ** ((target - 2.35) / 4.7)))


def next_stops(stops: int, target: float, found: float, *, floor: int, ceiling: int) -> int:
    """The min stops to try after a level of ``stops`` came out at ``found`` for ``target``."""
    scaled = round(stops * 10 ** ((target - found) / 4.7))
    if scaled == stops:
        scaled = stops + (1 if target > found else -1)
    return min(ceiling, max(floor, scaled))


def design_felt(job: DesignJob, run) -> Design:
    """A level of ``job``'s request whose predicted difficulty is within the tolerance of
    ``request.difficulty``; ``run(job)`` designs a level (``designer.search.design.run``), for the
    jobs derived here: a band of min stops, no objective of its own, no layout to start from."""
    from designer.analysis import bounds
    from designer.analysis.player import play

    request, seed, time_limit, cancel = job.request, job.seed, job.time_limit, job.cancel
    if job.maximize or job.maximize_choices:
        raise RequestError(
            "a predicted difficulty is a target of its own: leave out {maximize} and "
            "{maximize_choices}"
        )
    if not request_kind(request).predicts_difficulty:
        raise RequestError(
            "a predicted difficulty is asked of a level with one start and one goal, not of a "
            "room's doors ({doors})"
        )
    assert request.difficulty is not None  # asked in predicted difficulty
    target = float(request.difficulty)
    player = player_of(request)
    budget = Budget(time_limit, ended=cancel)
    floor = request.min_stops
    # never below the floor: a floor the grid cannot hold is the inner design's to prove, in its
    # words
    ceiling = (
        request.max_stops
        if request.max_stops is not None
        else max(floor, bounds.most_stops(request))
    )
    stops = min(ceiling, max(floor, first_stops(target)))
    best: tuple[float, Design, float] | None = None
    tried = 0
    while tried < FELT_TRIES and not budget.expired():
        one = replace(request, difficulty=None, min_stops=stops, max_stops=min(ceiling, stops + 1))
        try:
            found = run(
                job.but(
                    request=one,
                    seed=seed + SEED_STEP * tried,
                    time_limit=share(request, budget.left()),
                    maximize=False,
                    maximize_choices=False,
                    hint=None,
                )
            )
        # proven infeasible, or out of its share of the time
        except DesignFailed:
            if budget.cancelled():
                raise
            tried += 1
            if (best is not None and best[1].min_stops > stops) or (
                best is None and request.extras
            ):
                # a longer level was made, or none yet of one with items or portals: this one is
                # too short for what the level holds (an item to fetch, a portal to take), and
                # nothing shorter is tried again
                floor = stops + 1
            elif stops > floor:  # too long a level here
                ceiling = stops - 1
            elif best is None:
                # nothing shorter is allowed: the floor itself cannot be met, and this says why
                raise
            else:
                break
            if floor > ceiling:
                break
            stops = min(ceiling, max(floor, stops - 1 if stops >= floor else stops * 3 // 2))
            continue
        felt = play(found.level, player).difficulty
        gap = abs(felt - target)
        if best is None or gap < best[0]:
            best = (gap, found, felt)
        tried += 1
        if gap <= FELT_TOLERANCE * target / 2:
            break
        stops = next_stops(stops, target, felt, floor=floor, ceiling=ceiling)
    if best is not None and best[0] > FELT_TOLERANCE * target / 2 and not budget.expired():
        best = tune(best, request, target, player, seed, budget)
    if best is None or best[0] > FELT_TOLERANCE * target:
        close = (
            ""
            if best is None
            else f": the closest found has {best[2]:g} (min stops {best[1].min_stops})"
        )
        raise DesignFailed(
            "time limit",
            f"no level within {FELT_TOLERANCE:.0%} of predicted difficulty {target:g} "
            f"in {tried} tr{'y' if tried == 1 else 'ies'}{close}",
        )
    _, found, felt = best
    record = found.generator.but(
        stage=f"{found.generator.stage}, for difficulty {target:g}",
        request=request,
        seed=seed,
        seconds=round(budget.seconds(), 3),
        time_limit=time_limit,
        difficulty_felt=felt,
    )
    return replace(found, generator=record)


def tune(
    best: tuple[float, Design, float],
    request: LayoutRequest,
    target: float,
    player,
    seed: int,
    budget: Budget,
) -> tuple[float, Design, float]:
    """A climb from ``best`` (gap, design, difficulty) toward ``target``: one free cell toggled at a
    time, kept when the level still meets the request's band (strong, reversible, within its
    rocks) and its predicted difficulty comes nearer; the level it ends on passes the one
    verifier."""
    import numpy as np

    from designer.analysis.classify import classify
    from designer.analysis.graph import analyze
    from designer.analysis.player import play, raw_scale
    from designer.analysis.verify import failure
    from designer.core.terrain import ICE, ROCK

    gap, found, felt = best
    level = found.level
    taken = {level.start, level.goal, *level.items, *level.coins}
    taken |= {cell for pair in level.portals for cell in pair}
    free = [cell for cell in request.free_cells() if cell not in taken]
    if not free or level.floors:  # a template's floors: their ladders and holes stay as drawn
        return best
    band = replace(
        request, difficulty=None, min_stops=request.min_stops, max_stops=request.max_stops
    )
    rng = np.random.default_rng(seed)
    rocks = sum(level.terrain[cell] == ROCK for cell in free)
    exact = abs(raw_scale(play(level, player).expected_moves) - target)
    for _ in range(FELT_STEPS):
        if exact <= FELT_TOLERANCE * target / 4 or budget.expired():
            break
        cell = free[int(rng.integers(len(free)))]
        terrain = level.terrain.copy()
        if terrain[cell] == ROCK:
            terrain[cell] = ICE
        elif terrain[cell] == ICE and (request.max_rocks is None or rocks < request.max_rocks):
            terrain[cell] = ROCK
        else:
            continue
        candidate = level.replace(terrain=terrain)
        shape = classify(candidate)
        if (
            shape.solvability != "strong"
            or not shape.reversible
            or shape.min_stops is None
            or shape.min_stops < band.min_stops
            or (band.max_stops is not None and shape.min_stops > band.max_stops)
        ):
            continue
        # items and portals must still each matter: the one verifier, on the few that pass
        if (level.items or level.portals) and failure(band, candidate) is not None:
            continue
        nearer = abs(raw_scale(play(candidate, player).expected_moves) - target)
        if nearer < exact:
            level, exact = candidate, nearer
            rocks = sum(level.terrain[c] == ROCK for c in free)
    if level == found.level:
        return best
    report = analyze(level)
    if failure(band, level, report) is not None:
        return best
    now = play(level, player).difficulty
    if abs(now - target) >= gap:
        return best
    return (
        abs(now - target),
        Design(level, report, found.generator.but(stage=f"{found.generator.stage}, then tuned")),
        now,
    )
