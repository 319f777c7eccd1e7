"""The tables a full clear is searched over (``designer.analysis.tour``): every slide of a level
with what it takes (``Moves``: ``slide_moves``, ``step``) and the lower bound from the cells
alone (``Bounds``: ``bounds``), each built within a budget (``OutOfTime``), in vector passes: a
plain level's slides from the kernels' table, its bounds by walks back over the moves
(``walk_back``, which the coins' figures walk too: ``designer.analysis.coins``).

>>> from designer.core.level import Level
>>> moves = slide_moves(Level.from_ascii("#####\\n#S.$#\\n#.#.#\\n#..G#\\n#####"))
>>> moves.things, int(bounds(moves).of(np.array([moves.start]), np.zeros(1, np.int64), 1)[0])
(((1, 3),), 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.rules import portal_index, trace
from designer.core.terrain import ROCK, Cell

#: Out of reach: a bound or a distance no way makes.
INF = 1 << 30
#: Cells past which the tables ask their budget at every step: a smaller level's take milliseconds,
#: and with no time left its tables are still built, for the bound they prove.
LARGE_CELLS = 10_000


@dataclass(frozen=True)
class Moves:
    """Every slide of a level, with what it takes (``things``: the items, then the coins; bit k
    of a mask is the k-th). Arrays (cells, 4): ``end`` the cell a slide stops on when nothing
    captures it (-1: no move, or round for ever), ``takes`` the things on it; a slide that passes
    the goal is captured there at its first pass (``first``) or its second (``second``, a slide
    round a wrapping line) once every item is taken by then: ``before1``/``before2`` the things
    it took up to that pass."""

    end: np.ndarray
    takes: np.ndarray
    first: np.ndarray
    before1: np.ndarray
    second: np.ndarray
    before2: np.ndarray
    goal: int
    start: int
    items: int  # the mask of every item (the exit opens once these are taken)
    things: tuple[Cell, ...]


class OutOfTime(Exception):
    """A full clear's tables outlived its budget (a level of a million cells and 32 coins)."""


def slide_moves(
    level: Level, things: tuple[Cell, ...] | None = None, budget: Budget | None = None
) -> Moves:
    """The ``Moves`` of ``level`` for ``things`` (default: its items, then its coins). A plain
    level's come from the kernels' slide table and a walk back from each thing along its lines;
    a level with portals, floors or wrap-around is traced slide by slide, its ``budget`` asked as
    it goes (``OutOfTime``)."""
    things = tuple((*level.items, *level.coins) if things is None else things)
    return _plain_moves(level, things) if level.plain else _traced_moves(level, things, budget)


def _traced_moves(level: Level, things: tuple[Cell, ...], budget: Budget | None = None) -> Moves:
    """``slide_moves`` slide by slide (``designer.core.rules.trace``): any level's."""
    cells, goal = level.height * level.width, level.index(level.goal)
    bit = {level.index(cell): 1 << k for k, cell in enumerate(things)}
    end = np.full((cells, 4), -1, np.int64)
    takes, before1, before2 = (np.zeros((cells, 4), np.int64) for _ in range(3))
    first, second = np.zeros((cells, 4), bool), np.zeros((cells, 4), bool)
    for cell, d, slide in _slides(level, budget):
        taken, passes = 0, 0
        for at in slide.path:
            taken |= bit.get(at, 0)
            if at == goal and passes < 2:
                if passes == 0:
                    first[cell, d], before1[cell, d] = True, taken
                else:
                    second[cell, d], before2[cell, d] = True, taken
                passes += 1
        if not slide.loops:
            end[cell, d], takes[cell, d] = slide.path[-1], taken
    items = (1 << len(level.items)) - 1
    return Moves(
        end,
        takes,
        first,
        before1,
        second,
        before2,
        goal,
        level.index(level.start),
        items,
        tuple(things),
    )


def _plain_moves(level: Level, things: tuple[Cell, ...]) -> Moves:
    """``slide_moves`` of a plain level (straight slides): the kernels' slide table, nothing
    capturing, gives each slide's end and length; a slide takes thing k, and passes the goal, when
    it starts behind it on its line and is long enough to reach it. Vector passes, a line a thing."""
    from designer.core.rules import behind, slide_takes, terrain_slide_table

    height, width = level.height, level.width
    cells, goal = height * width, level.index(level.goal)
    key = (level.terrain.tobytes(), level.terrain.shape)
    if key not in _PLAIN:  # placing coins asks of one grid again and again
        if len(_PLAIN) >= 4:
            _PLAIN.pop(next(iter(_PLAIN)))
        _PLAIN[key] = terrain_slide_table(level.terrain, -1)
    dest, length = _PLAIN[key]
    end = np.ascontiguousarray(dest.T, dtype=np.int64)
    takes, before1, before2 = (np.zeros((cells, 4), np.int64) for _ in range(3))
    first, second = np.zeros((cells, 4), bool), np.zeros((cells, 4), bool)
    rock = level.terrain.reshape(-1) == ROCK
    bits = np.zeros(cells, np.int64)
    for k, cell in enumerate(things):
        bits[level.index(cell)] |= np.int64(1) << np.int64(k)

    spots = [(k, level.index(cell)) for k, cell in enumerate(things)]
    for d in range(4):
        takes[:, d] = slide_takes(rock, width, d, length[d], spots)
        flat = behind(rock, width, goal, d)
        reach = length[d, flat] >= np.arange(1, len(flat) + 1)
        taken = np.bitwise_or.accumulate(np.concatenate([bits[[goal]], bits[flat]]))[
            : len(flat)
        ]  # up to the goal
        first[flat[reach], d], before1[flat[reach], d] = True, taken[reach]
    items = (1 << len(level.items)) - 1
    return Moves(
        end, takes, first, before1, second, before2, goal, level.index(level.start), items, things
    )


def step(moves: Moves, cells: np.ndarray, masks: np.ndarray):
    """Every move from the states (``cells``, ``masks``): arrays ``source`` (the index of the
    state moved from), ``d`` (the direction), ``cell``, ``mask`` and ``exited`` (the move ended
    in the open exit), in order of state then direction."""
    m = masks[:, None]
    take1 = m | moves.before1[cells]
    take2 = m | moves.before2[cells]
    cap1 = moves.first[cells] & ((take1 & moves.items) == moves.items)
    cap2 = ~cap1 & moves.second[cells] & ((take2 & moves.items) == moves.items)
    exited = cap1 | cap2
    mask = np.where(cap1, take1, np.where(cap2, take2, m | moves.takes[cells]))
    cell = np.where(exited, moves.goal, moves.end[cells])
    ok = (cell >= 0) & ~((cell == cells[:, None]) & (mask == m))
    source, d = np.nonzero(ok)
    return source, d, cell[ok], mask[ok], exited[ok]


_SLIDES: dict = {}
_PLAIN: dict = {}  # a plain grid's slide table, nothing capturing: (dest, length)


def _slides(level: Level, budget: Budget | None = None) -> list:
    """Every slide of a level with portals, floors or wrap-around (cell, direction, ``trace``'s
    Slide with laps), nothing capturing: its items and coins aside, kept for the last few grids
    (placing coins asks again and again). ``budget`` is asked every 1,024 cells (``OutOfTime``)."""
    key = (
        level.terrain.tobytes(),
        level.terrain.shape,
        level.start,
        level.goal,
        level.portals,
        level.floors,
    )
    found = _SLIDES.get(key)
    if found is None:
        portals = portal_index(level)
        found = []
        for n, cell in enumerate(np.flatnonzero(level.terrain.reshape(-1) != ROCK).tolist()):
            if budget is not None and n % 1024 == 1023 and budget.expired():
                raise OutOfTime
            found += [
                (cell, d, slide)
                for d in range(4)
                if (slide := trace(level, cell, d, laps=True, portals=portals)) is not None
            ]
        if len(_SLIDES) >= 4:
            _SLIDES.pop(next(iter(_SLIDES)))
        _SLIDES[key] = found
    return found


@dataclass(frozen=True)
class Bounds:
    """The cell-level figures the lower bound is made of (see the module docstring)."""

    take: np.ndarray  # (things, cells)
    after: np.ndarray  # (things,)
    exit_after: np.ndarray  # (things,)
    exit: np.ndarray  # (cells,) fewest moves to the exit, things aside

    def of(self, cells: np.ndarray, masks: np.ndarray, full: int) -> np.ndarray:
        """The lower bound of each state: moves still needed to take every thing and exit (a
        thing at a time, so that its memory is a few arrays of the states, whatever the things)."""
        count = self.take.shape[0]
        if not count:
            return self.exit[cells]
        total = np.zeros(len(cells), np.int64)
        first = np.full(len(cells), INF, np.int64)  # the first thing taken is reached from here
        out = np.full(len(cells), INF, np.int64)
        any_left = np.zeros(len(cells), bool)
        for k in range(count):
            left = (masks >> k) & 1 == 0
            take = self.take[k][cells].astype(np.int64)
            reach = np.minimum(take, self.after[k])
            total += np.where(left, reach, 0)
            np.minimum(first, np.where(left, take - reach, INF), out=first)
            np.minimum(out, np.where(left, self.exit_after[k], INF), out=out)
            any_left |= left
        bound = np.where(any_left, total + first + out, 0)
        return np.minimum(np.maximum(bound, self.exit[cells]), INF)


def bounds(moves: Moves, budget: Budget | None = None) -> Bounds:
    """The ``Bounds`` of a level's moves: every move of the cells, taking all it passes and
    ending where it would with or without the exit open (a relaxation of the states' moves).
    A breadth-first walk back over the moves per thing (and one for the exit), each in vector
    passes; ``budget`` is asked between layers (``OutOfTime``)."""
    cells = moves.end.shape[0]
    count = len(moves.things)
    tails: list[np.ndarray] = []
    heads: list[np.ndarray] = []
    took: Any = []  # lists of arrays, then their concatenations
    into_exit: Any = []
    for d in range(4):
        free = moves.end[:, d] >= 0
        tails.append(np.flatnonzero(free))
        heads.append(moves.end[free, d])
        took.append(moves.takes[free, d])
        into_exit.append(np.zeros(int(free.sum()), bool))
        for flag, before in ((moves.first, moves.before1), (moves.second, moves.before2)):
            at = flag[:, d]
            tails.append(np.flatnonzero(at))
            heads.append(np.full(int(at.sum()), moves.goal))
            took.append(before[at, d])
            into_exit.append(np.ones(int(at.sum()), bool))
    tail, head = np.concatenate(tails), np.concatenate(heads)
    took, into_exit = np.concatenate(took), np.concatenate(into_exit)
    walk = ~into_exit  # a move into the exit ends the game: nothing follows it
    into = predecessors(tail[walk], head[walk], cells)
    exit_ = walk_back(into, tail[into_exit], cells, budget)
    take = np.empty((count, cells), np.int32)
    for k in range(count):
        # a small level's tables: milliseconds
        if budget is not None and cells > LARGE_CELLS and budget.expired():
            raise OutOfTime
        take[k] = walk_back(into, tail[(took >> k) & 1 == 1], cells, budget)
    after_move = np.where(into_exit, 0, exit_[head])  # after each move: the fewest to the exit
    exit_after = np.full(count, INF, np.int64)
    after = np.full(count, INF, np.int64)
    for k in range(count):
        mine = (took >> k) & 1 == 1
        exit_after[k] = after_move[mine].min(initial=INF)
        source = (
            took & ~(1 << k)
        ) != 0  # moves taking some other thing j: from just after them to k
        if source.any():
            value = np.where(mine, 0, np.where(into_exit, INF, take[k][head]))
            after[k] = value[source].min()
    return Bounds(take, after, exit_after, exit_)


def predecessors(tail: np.ndarray, head: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """The moves as lists of predecessors (compressed rows): for cell y, ``before[start[y]:start[y
    + 1]]`` are the cells with a move onto y."""
    order = np.argsort(head, kind="stable")
    start = np.zeros(cells + 1, np.int64)
    np.cumsum(np.bincount(head, minlength=cells), out=start[1:])
    return start, tail[order]


def walk_back(
    into: tuple[np.ndarray, np.ndarray], first: np.ndarray, cells: int, budget: Budget | None
) -> np.ndarray:
    """Fewest moves from each cell to a move out of one of the cells ``first`` (1 there; INF where
    none leads), walking the predecessors ``into`` back a layer at a time."""
    start, before = into
    dist = np.full(cells, INF, np.int64)
    frontier = np.unique(first)
    dist[frontier] = depth = 1
    while frontier.size:
        # a small level's walk ends before its eighth layer: no time left still gives its bound
        if budget is not None and (depth % 8 == 0 or cells > LARGE_CELLS) and budget.expired():
            raise OutOfTime
        begin, counts = start[frontier], start[frontier + 1] - start[frontier]
        total = int(counts.sum())
        if not total:
            break
        offsets = np.repeat(begin - np.cumsum(counts) + counts, counts) + np.arange(total)
        found = before[offsets]
        frontier = np.unique(found[dist[found] == INF])
        depth += 1
        dist[frontier] = depth
    return dist
