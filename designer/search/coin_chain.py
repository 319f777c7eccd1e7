"""The rock and coin chain: once coins are placed, rocks and coins moved one at a time, every step
keeping the request met and the way to the exit as it was, toward the full clear's band
(``rock_and_coin_chain``)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from designer.analysis.coins import CoinReport, coin_report
from designer.analysis.tour import full_clear
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.terrain import Cell

#: The states the proof of each full clear may keep while placing (a designed level's are few).
#: The most steps, and the most seconds, of the chain that moves rocks and coins on one level.
CHAIN_STEPS, CHAIN_SECONDS = 400, 3.0
PLACING_STATES = 2_000_000


@dataclass(frozen=True)
class Placed:
    """The level with its coins, their report (``designer.analysis.coins.CoinReport``), and whether
    the placement met the request: every coin worth taking, no full-clear trap, the band."""

    level: Level
    report: CoinReport
    worth: bool
    in_band: bool

    @property
    def met(self) -> bool:
        return (
            self.worth
            and self.in_band
            and self.report.complete
            and not self.report.traps
            and self.report.full.proven
        )


def band_miss(band):
    """How far a full clear is from the band (0: in it), then the longer the better."""
    low, high = band

    def miss(stops):
        if stops is None:
            return (float("inf"), 0)
        return (
            max(0, (low or 0) - stops) + max(0, stops - (high if high is not None else stops)),
            -stops,
        )

    return miss


def judge(level: Level, coins: list[Cell], band, budget: Budget) -> Placed:
    with_coins = level.replace(coins=tuple(coins))
    report = coin_report(with_coins, budget.share(0.5), PLACING_STATES)
    full = report.full.stops if report.full.proven and report.full.moves else None
    worth = all(coin.adds is not None and coin.adds > 0 for coin in report.coins)
    low, high = band
    in_band = full is not None and (low is None or full >= low) and (high is None or full <= high)
    return Placed(with_coins, report, worth, in_band)


def rank(placed: Placed, miss) -> tuple:
    """Fewer defects first: coins not worth taking, then how far from the band."""
    full = placed.report.full.stops if placed.report.full.proven else None
    return (sum(coin.adds is None or coin.adds <= 0 for coin in placed.report.coins), miss(full))


def rock_and_coin_chain(
    request,
    placed: Placed,
    band,
    *,
    seed: int,
    budget: Budget,
    pinned: tuple[Cell, ...] = (),
    steps: int = CHAIN_STEPS,
) -> Placed:
    """Rocks and coins moved together on ``placed.level`` (see the module docstring): the first
    placement that meets the request, else the best found (``Placed.met`` says which).
    ``request`` is the request without its coins; a step must keep it met. ``pinned`` coins (a
    template's) never move. At most ``steps`` steps."""
    from designer.analysis.graph import analyze
    from designer.analysis.verify import failure
    from designer.core.terrain import ICE, ROCK

    rng = random.Random(seed)
    miss = band_miss(band)
    level = placed.level
    coins = list(level.coins)
    kept = set(pinned)
    first = analyze(level.replace(coins=()))
    floor = (first.min_stops, first.options)  # what the way to the exit keeps at every step
    free = [cell for cell in request.free_cells() if level.terrain[cell] in (ICE, ROCK)]
    busy = {
        level.start,
        level.goal,
        *level.items,
        *(cell for pair in level.portals for cell in pair),
    }
    free = [cell for cell in free if cell not in busy]
    best = placed

    def length(grid: Level, cells) -> int | None:
        tour = full_clear(grid.replace(coins=tuple(cells)), budget.share(0.2), PLACING_STATES)
        return tour.stops if tour.proven and tour.moves else None

    now = miss(length(level, coins))
    for _ in range(steps):
        if budget.expired() or best.met:
            break
        grid, moved = level, coins
        # a free cell toggled between ice and rock
        if rng.random() < 0.5 and request.difficulty is None:
            # (no coin on it; a predicted difficulty asked for is the design's own: its rocks stay)
            cell = rng.choice(free)
            if cell in coins:
                continue
            terrain = level.terrain.copy()
            terrain[cell] = ROCK if terrain[cell] == ICE else ICE
            grid = level.replace(terrain=terrain, coins=())
            report = analyze(grid)
            if (
                (report.min_stops or 0) < (floor[0] or 0)
                or report.options < floor[1]
                or failure(request, grid, report) is not None
            ):
                continue
        else:  # a coin moved to another free ice cell
            movable = [k for k, cell in enumerate(coins) if cell not in kept]
            target = rng.choice(free)
            if not movable or target in coins or level.terrain[target] != ICE:
                continue
            k = rng.choice(movable)
            moved = coins[:k] + [target] + coins[k + 1 :]
        score = miss(length(grid, moved))
        if score > now:
            continue
        level, coins, now = grid.replace(coins=()), moved, score
        if score[0] == 0 or score < miss(
            best.report.full.stops if best.report.full.proven else None
        ):
            judged = judge(level, coins, band, budget)
            if judged.met or rank(judged, miss) < rank(best, miss):
                best = judged
    return best
