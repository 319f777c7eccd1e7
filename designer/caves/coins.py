"""A cave's coins and its full clear: every coin of every room taken, then the exit.

Coins (``$``) lie in any room of a cave, as in a level (``designer.analysis.tour``): a slide
takes each coin it passes or stops on, and the exit never waits for them. The cave's **full
clear** is the fewest moves that take every coin and then leave by the exit. It is searched as a
level's is, over the states the player reaches, each a cave state (cell of the sheet, keys
held: ``designer.caves.graph.states``) with one bit per coin: the same lower bound, beams and
proof (``designer.analysis.tour.search``). A key is never needed for the full clear itself, but
a locked link stays shut until its key is held, so a coin behind a lock costs the key's detour.

>>> from designer.caves.cave import Cave
>>> cave = Cave.parse("room a\\n#1#\\n#$2\\n###\\nroom b\\n#1#\\n2.#\\n###\\ndoor a:2 b:2\\n"
...                   "entrance a:1\\nexit b:1")
>>> tour = full_clear(cave)
>>> tour.moves, tour.proven, tour.path[1]
('drru', True, ('a', (1, 1)))
"""

from __future__ import annotations

import numpy as np

from designer.analysis.tour import MAX_STATES, FullClear, search
from designer.analysis.tour_tables import Moves, bounds
from designer.caves.cave import Cave
from designer.caves.graph import Sheet, sheet, states
from designer.core.budget import Budget
from designer.core.rules import slide_takes
from designer.core.terrain import ROCK


def coin_cells(laid: Sheet) -> tuple[int, ...]:
    """The flat sheet cells of the cave's coins, room by room (each room's in row order)."""
    return tuple(laid.cell(name, cell) for name, cell in laid.cave.coins)


def cave_moves(laid: Sheet) -> Moves:
    """The cave's moves over its states (``states``), with the coins each slide takes: a slide
    runs straight from its cell for as many cells as it slides (a link ends it on its door), so
    its coins are those on that line, as a level's (``designer.core.rules.slide_takes``). A
    slide into the exit is captured there, as the exit never waits for coins (``first``, with
    the coins taken on the way)."""
    table = states(laid)
    count = table.count
    coins = coin_cells(laid)
    rock = laid.level.terrain.reshape(-1) == ROCK
    end = np.full((count, 4), -1, np.int64)
    takes = np.zeros((count, 4), np.int64)
    first = np.zeros((count, 4), bool)
    for d in range(4):
        dest = table.dest[d].astype(np.int64)
        takes[:, d] = slide_takes(rock, table.width, d, table.length[d], enumerate(coins))
        into_exit = dest == table.goal
        first[:, d] = into_exit
        end[:, d] = np.where(into_exit, -1, dest)
    none = np.zeros((count, 4), np.int64)
    return Moves(
        end,
        takes,
        first,
        takes.copy(),
        np.zeros((count, 4), bool),
        none,
        table.goal,
        table.start,
        0,
        tuple(laid.level.cell(flat) for flat in coins),
    )


def full_clear(
    cave: Cave, budget: Budget | float | None = None, max_states: int = MAX_STATES
) -> FullClear:
    """The cave's full clear (see the module docstring), within ``budget`` (seconds, or a
    ``Budget``; 10 s by default). Its path names each resting place as (room, (row, col)) in the
    room's own cells; ``taken`` gives each coin's move, room by room."""
    budget = budget if isinstance(budget, Budget) else Budget(10.0 if budget is None else budget)
    laid = sheet(cave)
    moves = cave_moves(laid)
    cells = laid.level.height * laid.level.width

    def place(state: int):
        flat = state % cells
        return laid.room_of(flat), laid.local(flat)

    return search(moves, bounds(moves), budget, max_states, place)
