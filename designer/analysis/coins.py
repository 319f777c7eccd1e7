"""Each coin of a level: what it adds to the full clear, whether every fewest way to the exit
takes it, and its full-clear traps (docs/spec.md "Coins"; the full clear: ``designer.analysis.tour``).

>>> from designer.core.level import Level
>>> report = coin_report(Level.from_ascii("######\\n##.#.#\\n#....#\\n#$.SG#\\n######"))
>>> report.full.moves, report.coins[0].adds, report.coins[0].traps   # from (1, 4) only the exit is left
('lr', 1, ((1, 4),))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from designer.analysis.tour import MAX_STATES, FullClear, Seen, full_clear
from designer.analysis.tour_tables import INF, OutOfTime, predecessors, slide_moves, step, walk_back
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.terrain import Cell


@dataclass(frozen=True)
class Coin:
    """One coin's figures (``coin_report``): ``adds``, the moves it adds to the full clear (the
    full clear less that of the level without it; None when either is unproven); ``on_every_way``,
    whether every fewest-moves way to the exit takes it (then it costs nothing); ``traps``, the
    states reached with it untaken from which the exit is still reached but never with it taken:
    a player who stops there has lost the full clear for good (each [row, col], with the items
    taken as a third number when the level has items)."""

    cell: Cell
    adds: int | None
    on_every_way: bool | None  # None (and ``traps`` None): not searched within the time limit
    traps: tuple[tuple[int, ...], ...] | None

    def to_dict(self) -> dict:
        return {
            "cell": list(self.cell),
            "adds": self.adds,
            "on_every_way": self.on_every_way,
            "traps": None if self.traps is None else [list(t) for t in self.traps],
        }


@dataclass(frozen=True)
class CoinReport:
    """A level's coins: its full clear and each coin's figures."""

    full: FullClear
    coins: tuple[Coin, ...]

    @property
    def traps(self) -> int:
        """The full-clear traps: states from which some coin can no longer be taken (of the coins
        whose traps were searched: ``complete``)."""
        return len({t for coin in self.coins for t in coin.traps or ()})

    @property
    def complete(self) -> bool:
        """Every coin's way and traps were searched within the time limit."""
        return all(coin.traps is not None for coin in self.coins)

    def to_dict(self) -> dict:
        return {
            "count": len(self.coins),
            "full_clear": self.full.to_dict(),
            "full_clear_traps": self.traps,
            "each": [coin.to_dict() for coin in self.coins],
        }


def coin_report(
    level: Level, budget: Budget | float | None = None, max_states: int = MAX_STATES
) -> CoinReport:
    """The full clear of ``level`` and each coin's figures (``Coin``), within ``budget``: each
    coin's way and traps first (they are exact, and quick), then ``FULL_SHARE`` of what is left
    for the full clear, and the rest shared by the full clears without each coin (only when the
    full clear is proven: an unproven one has no difference to give)."""
    budget = budget if isinstance(budget, Budget) else Budget(10.0 if budget is None else budget)
    ways: list = []
    for cell in level.coins:
        try:
            if budget.expired():
                raise OutOfTime
            ways.append(one_coin(level, cell, budget))
        except OutOfTime:  # the rest are not searched: said so (None), never guessed
            ways += [(None, None)] * (len(level.coins) - len(ways))
            break
    full = full_clear(level, budget.share(FULL_SHARE), max_states)
    coins = []
    for k, (cell, (every, traps)) in enumerate(zip(level.coins, ways)):
        without = level.replace(coins=level.coins[:k] + level.coins[k + 1 :])
        adds = None
        if full.proven and full.moves is not None:
            less = full_clear(without, budget.share(1 / (len(level.coins) - k)), max_states)
            if less.proven and less.stops is not None and full.stops is not None:
                adds = full.stops - less.stops
        coins.append(Coin(cell, adds, every, traps))
    return CoinReport(full, tuple(coins))


#: The share of the time left (after each coin's way and traps) that the full clear is given.
FULL_SHARE = 0.8


def one_coin(
    level: Level, coin: Cell, budget: Budget | None = None
) -> tuple[bool, tuple[tuple[int, ...], ...]]:
    """Whether every fewest way to the exit takes ``coin``, and its full-clear traps: over the
    states (cell, items taken, this coin taken), every one the player reaches, walked forward a
    layer at a time and back over the moves found (vector passes); ``budget`` is asked between
    layers (``OutOfTime``)."""
    moves = slide_moves(level, (*level.items, coin), budget)
    bit = np.int64(1 << len(level.items))
    shift, full = np.int64(len(moves.things)), np.int64((1 << len(moves.things)) - 1)
    cells, masks = np.array([moves.start], np.int64), np.zeros(1, np.int64)
    seen = Seen(np.array([moves.start << int(shift)], np.int64))
    # the moves between states; the moves into the exit (lists of arrays, then their concatenations)
    froms: list[np.ndarray] = []
    tos: list[np.ndarray] = []
    exits: Any = []
    took: Any = []
    depth, fewest, fewest_without = 0, None, None
    while len(cells):
        if budget is not None and budget.expired():
            raise OutOfTime
        depth += 1
        source, _, cell, mask, exited = step(moves, cells, masks)
        keys = (cells[source] << shift) | masks[source]
        if exited.any():
            exits.append(keys[exited])
            took.append(mask[exited] & bit != 0)
            fewest = fewest or depth
            if not took[-1].all():
                fewest_without = fewest_without or depth
        stay = ~exited
        to = (cell[stay] << shift) | mask[stay]
        froms.append(keys[stay])
        tos.append(to)
        to = np.unique(to)
        to = to[~seen.holds(to)]
        seen.add(to)
        cells, masks = to >> shift, to & full
    if budget is not None and budget.expired():
        raise OutOfTime
    states = np.sort(np.concatenate(seen.runs))

    def index(keys) -> np.ndarray:
        return np.searchsorted(states, keys)

    into = (
        predecessors(index(np.concatenate(froms)), index(np.concatenate(tos)), len(states))
        if froms
        else predecessors(np.zeros(0, np.int64), np.zeros(0, np.int64), len(states))
    )
    exits = np.concatenate(exits) if exits else np.zeros(0, np.int64)
    took = np.concatenate(took) if took else np.zeros(0, bool)
    with_coin = walk_back(into, index(exits[took]), len(states), budget) < INF
    any_exit = walk_back(into, index(exits), len(states), budget) < INF
    lost = ((states & bit) == 0) & any_exit & ~with_coin
    width, items = level.width, len(level.items)
    traps = []
    for key in states[lost].tolist():
        mask = key & int(full)
        r, c = divmod(key >> int(shift), width)
        traps.append((r, c, mask) if items else (r, c))
    every = fewest is not None and fewest_without != fewest
    return every, tuple(traps)
