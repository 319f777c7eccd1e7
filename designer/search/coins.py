"""Coins placed on a designed level (``make --coins N``, docs/spec.md "Coins").

The level is designed first, coins aside: they never change the exit's par, its class or its
reversibility, so every guarantee of the request holds with them. Then ``place_coins`` lays the
coins, all its random choices from the seed:

- **No full-clear trap.** A cell is a candidate only where a coin could not be lost for good
  (``designer.analysis.coins``: its traps are read coin by coin, so this is a test of the cell
  alone), on ice some slide of the level passes.
- **Greedy, then a climb.** The ``TOP`` cells whose coin alone makes the longest full clear are
  weighed. Coins are added one at a time, each the one of those (all of them, while time allows)
  that brings the full clear closest to the band (longest without one); then, coin
  by coin in an order drawn from the seed, each is moved to its best cell while that makes the
  placement better (fewer coins not worth taking, then closer to the band), until it is met.
- **Each coin worth taking**: the full clear without it is shorter (it adds at least a move).
- **The full clear in its band** (``--full-clear K[..M]``), every full clear proven optimal.

When the coins alone cannot meet the request on a level, **a chain moves rocks and coins
together** (``rock_and_coin_chain``) before another level is designed: each step toggles a free
cell between ice and rock or moves a coin, and is kept when the level still meets the request
(the one verifier, ``designer.analysis.verify``) losing nothing of the way to the exit (its min
stops and its options along the solution), and its full clear comes no farther from the band.

>>> from designer.core.budget import Budget
>>> from designer.core.level import Level
>>> level = Level.from_ascii("#######\\n#S....#\\n#.#.#.#\\n#.....#\\n#.#.#.#\\n#....G#\\n#######")
>>> placed = place_coins(level, 2, seed=1, budget=Budget(10))
>>> len(placed.level.coins), placed.worth, placed.report.traps, placed.report.full.proven
(2, True, 0, True)
"""

from __future__ import annotations

import random

import numpy as np

from designer.analysis.coins import one_coin
from designer.analysis.tour import full_clear
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.rules import portal_index, trace
from designer.core.terrain import Cell
from designer.search.coin_chain import (
    CHAIN_SECONDS,
    PLACING_STATES,
    Placed,
    band_miss,
    judge,
    rank,
    rock_and_coin_chain,
)

#: How many candidate cells each greedy step weighs at least, however little time is left.
DRAWS = 10
#: The climb runs when the greedy placement's full clear is at most this far from its band.
CLIMB_REACH = 3
#: The cells weighed for coins: those whose coin alone makes the longest full clear.
TOP = 16


def candidates(level: Level, budget: Budget | None = None) -> list[Cell]:
    """The cells a coin may take: free ice that some slide from a cell the player reaches passes
    over or stops on, where a coin could not be lost for good (no full-clear trap). Those found
    before ``budget`` ends (each cell's traps are a search of its own)."""
    from designer.analysis.tour_tables import OutOfTime, slide_moves, step

    moves = slide_moves(level, ())
    seen, frontier = {moves.start}, np.array([moves.start])
    while len(frontier):
        _, _, cell, _, exited = step(moves, frontier, np.zeros(len(frontier), np.int64))
        fresh = {int(c) for c in cell[~exited]} - seen
        seen |= fresh
        frontier = np.array(sorted(fresh), np.int64)
    portals = portal_index(level)
    busy = {
        level.start,
        level.goal,
        *level.items,
        *(cell for pair in level.portals for cell in pair),
    }
    passed: set[int] = set()
    for cell in seen:
        for d in range(4):
            slide = trace(level, cell, d, laps=True, portals=portals)
            if slide is not None:
                passed.update(slide.path)
    found = []
    for index in sorted(passed):
        cell = level.cell(index)
        if cell in busy or level.terrain[cell] != 0:
            continue
        try:
            if not one_coin(level, cell, budget)[1]:
                found.append(cell)
        except OutOfTime:
            break
    return found


def place_coins(
    level: Level,
    count: int,
    band: tuple[int | None, int | None] = (None, None),
    *,
    seed: int = 0,
    budget: Budget,
    pinned: tuple[Cell, ...] = (),
) -> Placed:
    """``count`` coins on ``level`` besides the ``pinned`` ones, which stay where they are (see the
    module docstring): the placement that met the request, or the best one found when the budget
    ran out first (``Placed.met`` says which)."""
    rng = random.Random(seed)
    pool = [cell for cell in candidates(level, budget) if cell not in pinned]
    if len(pool) < count:
        raise ValueError(
            f"{count} coins do not fit: {len(pool)} cells can hold a coin that cannot be lost"
        )

    def length(coins) -> int | None:
        tour = full_clear(level.replace(coins=tuple(coins)), budget.share(0.2), PLACING_STATES)
        return tour.stops if tour.proven and tour.moves else None

    # how far a full clear is from the band (0: in it), then the longer the better
    miss = band_miss(band)

    coins: list[Cell] = list(pinned)
    order = pool[:]
    rng.shuffle(order)  # the seed breaks ties
    alone = {}  # each cell's full clear as the only coin (those weighed before the time ends)
    for cell in order:
        if budget.expired():
            break
        alone[cell] = length([cell])
    order = [cell for cell in order if cell in alone]
    order = [
        cell
        for cell in sorted(order, key=lambda cell: -(alone[cell] or 0))
        if alone[cell] is not None
    ]
    if len(order) < count:
        raise ValueError(
            f"{count} coins do not fit: {len(order)} cells can hold a coin worth taking"
        )
    order = order[: max(TOP, count + 1)]  # the farthest out: the full clear weighs these
    now = length(coins)
    for _ in range(count):  # each step: every candidate weighed, while time allows
        scored: list[tuple] = []
        for k, cell in enumerate(cell for cell in order if cell not in coins):
            if k >= DRAWS and budget.expired():
                break
            stops = length(coins + [cell])
            if stops is not None and now is not None and stops <= now:
                continue  # not worth taking, as things stand
            scored.append((miss(stops), k, cell, stops))
        if not scored:
            scored = [(miss(None), 0, next(cell for cell in order if cell not in coins), None)]
        coins.append(min(scored)[2])
        now = min(scored)[3]
    best = judge(level, coins, band, budget)
    # a climb moves a full clear a few moves; farther: another level
    improved = miss(now)[0] <= CLIMB_REACH
    # sweeps: each coin moved to its best cell
    while not best.met and improved and not budget.expired():
        improved = False
        for k in rng.sample(range(len(pinned), len(coins)), len(coins) - len(pinned)):
            others = coins[:k] + coins[k + 1 :]
            scored = [
                (miss(length(others + [cell])), j, cell)
                for j, cell in enumerate(cell for cell in order if cell not in coins)
            ]
            if not scored or budget.expired():
                break
            moved = others[:k] + [min(scored)[2]] + others[k:]
            judged = judge(level, moved, band, budget)
            if rank(judged, miss) < rank(best, miss):
                coins, best, improved = moved, judged, True
            if best.met:
                break
    return best


#: Seeds apart of the levels tried in turn when coins cannot meet the request on one.
RETRY_SEED = 100_000
#: The most seconds the coins of one level are placed in before another level is tried.
PLACE_SECONDS = 4.0
#: The share of the time left that each level's design gets; its coins get most of the rest.
DESIGN_SHARE = 0.4


def design_with_coins(job, plain_design):
    """A level for a job (``designer.search.job.DesignJob``) whose request has coins: the level
    designed with its coins aside (``plain_design``, the designer's own ``run``, every guarantee of
    the request kept: coins
    change no figure of the way to the exit), then its coins placed (``place_coins``). When they
    cannot meet the request on that level, another is designed (the seed moved by ``RETRY_SEED``)
    while time is left. DesignFailed ("time limit") says the best placement found."""
    import time
    from dataclasses import replace

    from designer.search.result import DesignFailed

    request, seed, cancel = job.request, job.seed, job.cancel
    began = time.perf_counter()
    budget = Budget(job.time_limit, ended=cancel)
    pinned = request.pinned_coins  # a template's coins: fixed ice while the level is designed
    template = (
        None
        if request.template is None
        else tuple(row.replace("$", ".") for row in request.template)
    )
    bare = replace(request, coins=0, full_clear_min=None, full_clear_max=None, template=template)
    band = (request.full_clear_min, request.full_clear_max)
    things = request.coins + len(pinned) + request.item_count
    # between two takes, a shortest way rests on no cell twice
    most = (things + 1) * request.height * request.width
    if band[0] is not None and band[0] > most:
        taken = (
            f"{things} thing{'s' * (things != 1)} (coins and items)"
            if request.item_count
            else f"{things} coin{'s' * (things != 1)}"
        )
        raise DesignFailed(
            "infeasible",
            f"proven infeasible: a full clear of {taken} on {request.height}x"
            f"{request.width} makes at most {most:,} moves "
            f"(one cell at most once between two takes), below --full-clear {band[0]:,}",
        )
    # a pack's levels, bare
    tried, best, attempt = (
        [level.replace(coins=()) for level in job.exclude],
        None,
        0,
    )
    while True:
        found = plain_design(
            job.but(
                request=bare,
                seed=seed + attempt * RETRY_SEED,
                time_limit=budget.share(DESIGN_SHARE).left(),
                exclude=tuple(tried),
            )
        )
        try:
            placed = place_coins(
                found.level,
                request.coins,
                band,
                seed=seed + attempt,
                budget=budget.share(0.6).within(PLACE_SECONDS),
                pinned=pinned,
            )
        except ValueError:  # too few cells for the coins on this level
            placed = None
        if placed is not None and not placed.met and budget.left() > 1.0:
            placed = rock_and_coin_chain(
                bare,
                placed,
                band,
                seed=seed + attempt,
                budget=budget.share(0.6).within(CHAIN_SECONDS),
                pinned=pinned,
            )
        made = (
            _made(found, placed, bare, request, seed=seed, seconds=time.perf_counter() - began)
            if placed is not None and placed.met
            else None
        )
        if made is not None:
            return made
        if placed is not None and (
            best is None or rank(placed, band_miss(band)) < rank(best, band_miss(band))
        ):
            best = placed
        tried.append(found.level)
        attempt += 1
        if budget.left() < 0.5:
            what = (
                ""
                if best is None
                else (
                    (
                        f": the best had a full clear of {best.report.full.stops}"
                        if best.report.full.stops is not None
                        else ": the best had no full clear found"
                    )
                    + ("" if best.worth else ", some coin not worth taking")
                )
            )
            asked = f" with a full clear in {_band_words(band)}" if band != (None, None) else ""
            raise DesignFailed(
                "time limit",
                f"time limit reached: no placement of {request.coins} coin{'s' * (request.coins > 1)}{asked}, "
                f"each worth taking and none to be lost, on {attempt} "
                f"level{'s' if attempt != 1 else ''} designed{what}",
            )


def _made(found, placed: Placed, bare, request, *, seed: int, seconds: float):
    """The design of ``placed.level``: ``found`` with its coins, or, when the chain moved rocks,
    the new level verified again (the one verifier) with its own analysis and choice figures."""
    from dataclasses import replace

    from designer.analysis.graph import analyze
    from designer.analysis.verify import failure
    from designer.search.result import choice_figures

    record = found.generator.but(
        request=request, seed=seed, seconds=seconds, full_clear=placed.report.full.stops
    )
    level = placed.level
    if level.replace(coins=()) == found.level:
        return replace(found, level=level, generator=record)
    report = analyze(level.replace(coins=()))
    if failure(bare, level.replace(coins=()), report) is not None:
        return None  # every step of the chain was verified: never, but never handed back unverified
    if record.options is not None:
        record = record.but(**choice_figures(report))
    if request.difficulty is not None:  # asked in predicted difficulty: the new level's own again
        from designer.search.felt import within_target

        felt = within_target(level, request)
        if felt is None:
            return None  # the chain's rocks took it out of the tolerance: another level is tried
        record = record.but(difficulty_felt=felt)
    return replace(found, level=level, analysis=report, generator=record)


def _band_words(band) -> str:
    low, high = band
    return (
        f"{low}..{high}"
        if low is not None and high is not None
        else f">= {low}"
        if low is not None
        else f"<= {high}"
    )
