"""Items: the rule, and the level with items as a graph of states.

A level may hold up to ``MAX_ITEMS`` items (``*``), each on an ice cell. The player **takes** an
item by sliding over it or by stopping on it; an item never stops a slide. **The goal is plain
ice until every item is taken**: a slide passes over it, or rests on it, as on any ice cell. It
captures the player the moment the player enters it with every item taken, also when the last
item was taken earlier in that same slide.

So a level with items is a graph of **states** (cell, items taken), state number
``taken * cells + cell`` with ``taken`` the bitmask of items taken (bit k: the k-th item in
``level.items`` order) and ``cells`` = H x W. The game starts in (start, none taken) and ends in
(goal, all taken). Min stops, strong solvability, reversibility, options and rail stops are all
defined on this graph, and every analysis reads it through ``state_table``: with no items the
graph is the cells themselves and the table is the slide table, unchanged.

>>> from designer.core.level import Level
>>> level = Level.from_ascii("#G###\\n#...#\\n#S.*#\\n#####")
>>> states = state_table(level)
>>> states.count, states.cell(states.start), states.cell(states.goal), states.taken(states.goal)
(40, (2, 1), (0, 1), 1)
>>> right = states.dest[3, states.start]          # slide right from the start: over the item
>>> states.cell(right), states.taken(right)
((2, 3), 1)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from designer.core.errors import LevelError
from designer.core.level import Level
from designer.core.rules import (
    DELTAS,
    NO_MOVE,
    portal_index,
    slide_table,
    terrain_slide_table,
    trace,
)
from designer.core.terrain import Cell

#: The most states a level with items may have (cells x 2 ** items): about 100 MB of tables.
MAX_STATES = 2_000_000


@dataclass(frozen=True, eq=False)
class States:
    """The move table of a level's states: ``dest`` and ``length`` (4, count) int32, where the
    move in each direction from each state ends (NO_MOVE: none) and how many cells it slides;
    ``start`` and ``goal`` the state numbers the game begins and ends in."""

    dest: np.ndarray
    length: np.ndarray
    start: int
    goal: int
    cells: int  # H x W
    width: int
    items: tuple[Cell, ...]

    @property
    def count(self) -> int:
        return int(self.dest.shape[1])

    @property
    def all_taken(self) -> int:
        """The bitmask of every item."""
        return (1 << len(self.items)) - 1

    def cell(self, state: int) -> Cell:
        """The (row, col) the player rests on in ``state``."""
        return divmod(int(state) % self.cells, self.width)

    def taken(self, state: int) -> int:
        """The bitmask of the items taken in ``state``."""
        return int(state) // self.cells

    def label(self, state: int) -> tuple[int, ...]:
        """How a state is written out: its cell (row, col), with the items taken as a third number
        (the bitmask) when the level has items."""
        cell = self.cell(state)
        return cell if not self.items else (*cell, self.taken(state))

    def state(self, cell: Cell, taken: int = 0) -> int:
        return taken * self.cells + cell[0] * self.width + cell[1]


def state_count(level: Level) -> int:
    return level.height * level.width << len(level.items)


def check_states(level: Level) -> None:
    """Refuse (LevelError, one line) a level with items whose graph of states is too large."""
    if level.items and state_count(level) > MAX_STATES:
        raise LevelError(
            f"a {level.height}x{level.width} level with {len(level.items)} items has "
            f"{state_count(level):,} states: at most {MAX_STATES:,} are analysed"
        )


def state_table(level: Level) -> States:
    """The states of ``level`` and their moves (see the module docstring). With no items it is
    the slide table (``designer.core.rules.slide_table``), one state per cell."""
    cells, width = level.height * level.width, level.width
    start, goal = level.index(level.start), level.index(level.goal)
    if not level.items:
        dest, length = slide_table(level)
        return States(dest, length, start, goal, cells, width, ())
    check_states(level)
    if not level.plain:
        return _traced_states(level)
    # the goal is ice: nothing captures
    free_dest, free_length = terrain_slide_table(level.terrain, -1)
    rows, cols = np.divmod(np.arange(cells), width)
    count, full = len(level.items), (1 << len(level.items)) - 1
    points = np.array([level.goal, *level.items])  # the goal, then the items: (1 + count, 2)
    bits = (1 << np.arange(count, dtype=np.int64))[:, None]
    taken = np.arange(full + 1, dtype=np.int64)[:, None]  # every set of items taken, one row each
    dest = np.empty((4, cells << count), np.int32)
    length = np.empty((4, cells << count), np.int32)
    for d, (dr, dc) in enumerate(DELTAS):
        reach = free_length[d][None, :]
        # how far along each cell's slide in direction d each point lies (0: not on it)
        if dc == 0:
            same, k = cols[None, :] == points[:, 1:2], (points[:, 0:1] - rows[None, :]) * dr
        else:
            same, k = rows[None, :] == points[:, 0:1], (points[:, 1:2] - cols[None, :]) * dc
        k = np.where(same & (k >= 1) & (k <= reach), k, 0)
        at_goal, on = k[0], k[1:] > 0
        picked = (on * bits).sum(axis=0)  # the items the whole slide passes or ends on
        # of those, the ones before the goal
        before_goal = ((on & (k[1:] < at_goal)) * bits).sum(axis=0)
        captured = (at_goal > 0) & ((taken | before_goal) == full)  # (sets taken, cells)
        moving = free_dest[d] >= 0
        ends = np.where(captured, level.index(level.goal), free_dest[d])
        now = np.where(captured, full, taken | picked)
        dest[d] = np.where(moving, now * cells + ends, NO_MOVE).reshape(-1)
        length[d] = np.where(moving, np.where(captured, at_goal, free_length[d]), 0).reshape(-1)
    return States(dest, length, start, goal + full * cells, cells, width, level.items)


def _traced_states(level: Level) -> States:
    """``state_table`` of a level with items and portals, floors or wrap-around: each slide is
    traced once with nothing capturing (``designer.core.rules.trace``; one that runs round a
    wrapping row for ever, over two rounds), then cut at the goal for every set of items taken
    that opens it by then. A portal's target is entered as any cell: an
    item there is taken, and the goal there captures."""
    cells, width = level.height * level.width, level.width
    count, full = len(level.items), (1 << len(level.items)) - 1
    bit_of = {level.index(cell): 1 << k for k, cell in enumerate(level.items)}
    goal = level.index(level.goal)
    taken = np.arange(full + 1, dtype=np.int64)
    portals = portal_index(level)
    dest = np.full((4, cells << count), NO_MOVE, np.int32)
    length = np.zeros((4, cells << count), np.int32)
    for d in range(4):
        for cell in range(cells):
            slide = trace(level, cell, d, laps=True, portals=portals)
            if slide is None:
                continue
            now = taken.copy()
            ends = np.full(full + 1, slide.path[-1], np.int64)
            lengths = np.full(full + 1, slide.lengths[-1], np.int64)
            open_ = np.zeros(full + 1, bool)  # captured already, in this slide
            for at, step in zip(slide.path, slide.lengths):
                now = np.where(open_, now, now | bit_of.get(at, 0))
                if at == goal:
                    caught = ~open_ & (now == full)
                    ends[caught], lengths[caught] = goal, step
                    open_ |= caught
            # round for ever unless caught
            moving = open_ if slide.loops else np.ones(full + 1, bool)
            # where it began, nothing taken: no move
            moving &= now * cells + ends != taken * cells + cell
            dest[d, taken * cells + cell] = np.where(moving, now * cells + ends, NO_MOVE).astype(
                np.int32
            )
            length[d, taken * cells + cell] = np.where(moving, lengths, 0).astype(np.int32)
    return States(
        dest, length, level.index(level.start), goal + full * cells, cells, width, level.items
    )


def taken_along(states: States, path: list[int]) -> list[int]:
    """For each item (in ``states.items`` order), the move along the state ``path`` that takes it
    (1 for the first move), or 0 when the path never takes it."""
    when = [0] * len(states.items)
    for move, (before, after) in enumerate(zip(path, path[1:]), 1):
        new = states.taken(after) & ~states.taken(before)
        for bit in range(len(states.items)):
            if new >> bit & 1 and not when[bit]:
                when[bit] = move
    return when
