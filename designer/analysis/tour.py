"""Coins and the full clear: the fewest moves that take every item and every coin, then exit.

A coin (``$``) is taken as an item is, by resting on it or sliding over it, but **the exit never
waits for coins**: it captures the player as soon as every *item* is taken, coins left or not.
So a level has two pars: the exit's (``designer.analysis.solver``, coins read as ice) and the
**full clear**'s, the fewest moves of a game that takes every coin and every item and then
enters the exit. A full clear never enters the open exit early: that ends the game.

The full clear is searched over the states the player reaches, (cell, things taken), one bit
per item and coin, never over the whole product (up to 40 things: ``designer.core.level``):

1. **A lower bound** from the cells alone (``Bounds``). For each thing k, ``take[k][x]`` is the
   fewest moves from cell x to a move that takes k, and ``after[k]`` the fewest from just after
   taking k to another thing, ``exit[k]`` to the exit. Every thing left is taken by some move,
   reached from the cell the player is on or from just after another thing left, and the first
   from the cell, so a state's bound is the sum over the things left of the least of those (the
   first's from the cell), plus the least way out after the last one, and never less than the
   way to the exit. It never overestimates: no search below prunes a shorter full clear.
2. **A beam**: breadth-first layers that keep the ``width`` most promising states (fewest
   things left, then the least bound), widened while time is left. It finds a full clear fast,
   with no promise.
3. **The proof**: breadth-first layers that keep every state whose moves so far plus its bound
   could still beat the best found. When the layers run out the best found is optimal (proven);
   when the state budget or the time runs out first, the answer says the bound it reached.

>>> from designer.core.level import Level
>>> tour = full_clear(Level.from_ascii("#####\\n#S.$#\\n#.#.#\\n#..G#\\n#####"))
>>> tour.moves, tour.stops, tour.proven
('rd', 2, True)
>>> full_clear(Level.from_ascii("#####\\n#S..#\\n#.#$#\\n#.G.#\\n#####")).moves   # the exit waits for nothing
'rdl'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from designer.core.budget import Budget
from designer.core.level import ROCK, Cell, Level
from designer.core.rules import DIRECTIONS, portal_index, trace

#: How many states the proof keeps at most (about 40 bytes each, a layer at a time and the
#: layers' parents): ``--states`` on the command line.
MAX_STATES = 20_000_000
#: The beam's widths, tried in turn while time is left (the best tour of all is kept).
WIDTHS = (1_000, 10_000, 30_000, 100_000)
#: The states of the first, short proof: a small level's full clear is proven there.
QUICK = 300_000
#: At most this many things, the short proof runs before any beam (it usually ends the search).
FEW = 8
INF = 1 << 30


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


def slide_moves(level: Level, things: tuple[Cell, ...] | None = None, budget: Budget | None = None) -> Moves:
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
    return Moves(end, takes, first, before1, second, before2, goal, level.index(level.start), items, tuple(things))


def _plain_moves(level: Level, things: tuple[Cell, ...]) -> Moves:
    """``slide_moves`` of a plain level (straight slides): the kernels' slide table, nothing
    capturing, gives each slide's end and length; a slide takes thing k, and passes the goal, when
    it starts behind it on its line and is long enough to reach it. Vector passes, a line a thing."""
    from designer.core.rules import DELTAS, terrain_slide_table

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

    def behind(at: int, d: int) -> tuple[np.ndarray, np.ndarray]:
        """The cells 1, 2, ... steps behind ``at`` against direction ``d``, up to the first rock or
        edge, and whether each one's slide in ``d`` reaches ``at``."""
        r, c = divmod(at, width)
        dr, dc = DELTAS[d]
        steps = np.arange(1, (height if dr else width))
        rows, cols = r - dr * steps, c - dc * steps
        inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
        flat = (rows * width + cols)[inside]
        blocked = rock[flat]
        flat = flat[:int(np.argmax(blocked)) if blocked.any() else len(flat)]
        return flat, length[d, flat] >= np.arange(1, len(flat) + 1)

    for d in range(4):
        for k, cell in enumerate(things):
            flat, reach = behind(level.index(cell), d)
            takes[flat[reach], d] |= np.int64(1) << np.int64(k)
        flat, reach = behind(goal, d)
        taken = np.bitwise_or.accumulate(np.concatenate([bits[[goal]], bits[flat]]))[:len(flat)]  # up to the goal
        first[flat[reach], d], before1[flat[reach], d] = True, taken[reach]
    items = (1 << len(level.items)) - 1
    return Moves(end, takes, first, before1, second, before2, goal, level.index(level.start), items, things)


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
    key = (level.terrain.tobytes(), level.terrain.shape, level.start, level.goal, level.portals, level.floors)
    found = _SLIDES.get(key)
    if found is None:
        portals = portal_index(level)
        found = []
        for n, cell in enumerate(np.flatnonzero(level.terrain.reshape(-1) != ROCK).tolist()):
            if budget is not None and n % 1024 == 1023 and budget.expired():
                raise OutOfTime
            found += [(cell, d, slide) for d in range(4)
                      if (slide := trace(level, cell, d, laps=True, portals=portals)) is not None]
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
    tails, heads, took, into_exit = [], [], [], []
    for d in range(4):
        free = moves.end[:, d] >= 0
        tails.append(np.flatnonzero(free)), heads.append(moves.end[free, d])
        took.append(moves.takes[free, d]), into_exit.append(np.zeros(int(free.sum()), bool))
        for flag, before in ((moves.first, moves.before1), (moves.second, moves.before2)):
            at = flag[:, d]
            tails.append(np.flatnonzero(at)), heads.append(np.full(int(at.sum()), moves.goal))
            took.append(before[at, d]), into_exit.append(np.ones(int(at.sum()), bool))
    tail, head = np.concatenate(tails), np.concatenate(heads)
    took, into_exit = np.concatenate(took), np.concatenate(into_exit)
    walk = ~into_exit  # a move into the exit ends the game: nothing follows it
    into = _predecessors(tail[walk], head[walk], cells)
    exit_ = _back(into, tail[into_exit], cells, budget)
    take = np.empty((count, cells), np.int32)
    for k in range(count):
        take[k] = _back(into, tail[(took >> k) & 1 == 1], cells, budget)
    after_move = np.where(into_exit, 0, exit_[head])  # after each move: the fewest to the exit
    exit_after = np.full(count, INF, np.int64)
    after = np.full(count, INF, np.int64)
    for k in range(count):
        mine = (took >> k) & 1 == 1
        exit_after[k] = after_move[mine].min(initial=INF)
        source = (took & ~(1 << k)) != 0  # moves taking some other thing j: from just after them to k
        if source.any():
            value = np.where(mine, 0, np.where(into_exit, INF, take[k][head]))
            after[k] = value[source].min()
    return Bounds(take, after, exit_after, exit_)


def _predecessors(tail: np.ndarray, head: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """The moves as lists of predecessors (compressed rows): for cell y, ``before[start[y]:start[y
    + 1]]`` are the cells with a move onto y."""
    order = np.argsort(head, kind="stable")
    start = np.zeros(cells + 1, np.int64)
    np.cumsum(np.bincount(head, minlength=cells), out=start[1:])
    return start, tail[order]


def _back(into: tuple[np.ndarray, np.ndarray], first: np.ndarray, cells: int, budget: Budget | None) -> np.ndarray:
    """Fewest moves from each cell to a move out of one of the cells ``first`` (1 there; INF where
    none leads), walking the predecessors ``into`` back a layer at a time."""
    start, before = into
    dist = np.full(cells, INF, np.int64)
    frontier = np.unique(first)
    dist[frontier] = depth = 1
    while frontier.size:
        if budget is not None and depth % 8 == 0 and budget.expired():  # a small level's walk ends first
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


@dataclass(frozen=True)
class FullClear:
    """A full clear of a level: the moves of the best found (None when none was found), the
    lower bound proven (no full clear has fewer moves), whether the best is proven optimal, and
    why the search ended: ``"proven optimal"``, ``"proven: no full clear"`` (a thing cannot be
    taken, or the exit not reached after all), ``"time limit reached"`` or ``"state limit
    reached"`` (the proof was cut short; the best found stands, unproven)."""

    moves: str | None
    lower_bound: int
    proven: bool
    how: str
    states: int  # states the searches kept
    path: tuple[Cell, ...] = ()
    taken: tuple[int, ...] = ()  # each thing (items, then coins): the move that takes it

    @property
    def stops(self) -> int | None:
        return None if self.moves is None else len(self.moves)

    def to_dict(self) -> dict:
        found = {"moves": self.moves, "stops": self.stops, "lower_bound": self.lower_bound,
                 "proven": self.proven, "how": self.how, "states": self.states}
        if self.moves is not None:
            found["taken_at"] = list(self.taken)
        return found

    def words(self) -> str:
        """One line: ``103 moves (found; at least 65: time limit reached)`` and the like."""
        if self.moves is None:
            least = f"; at least {self.lower_bound}" if self.lower_bound else ""  # 0: its tables not even built
            return "no full clear (proven)" if self.proven else f"none found ({self.how}{least})"
        if self.proven:
            return f"{self.stops} moves (proven optimal)"
        return f"{self.stops} moves (found, not proven: at least {self.lower_bound}; {self.how})"


def full_clear(level: Level, budget: Budget | float | None = None, max_states: int = MAX_STATES,
               things: tuple[Cell, ...] | None = None) -> FullClear:
    """The fewest moves that take every item and coin of ``level`` (or ``things``) and then exit,
    searched as the module docstring says, within ``budget`` (seconds, or a ``Budget``; 10 s by
    default) and ``max_states`` kept by the proof."""
    budget = budget if isinstance(budget, Budget) else Budget(10.0 if budget is None else budget)
    try:
        moves = slide_moves(level, things, budget)
        found = bounds(moves, budget)
    except OutOfTime:  # the tables alone outlived the budget: nothing searched, no bound known
        return FullClear(None, 0, False, "time limit reached", 0)
    return search(moves, found, budget, max_states, level.cell)


def search(moves: Moves, bound: Bounds, budget: Budget, max_states: int = MAX_STATES, place=None) -> FullClear:
    """The full clear of any ``Moves`` (a level's, or a cave's over its states: ``designer.caves.
    coins``): a beam, a short proof (``QUICK`` states: a small level ends here, proven; with at
    most ``FEW`` things, the short proof first), wider beams while time is left, then the proof
    with what is left of the time and the states. ``place`` names the resting place of a state
    index in the answer's path (default: the index)."""
    place = place or int
    full = (1 << len(moves.things)) - 1
    floor = int(bound.of(np.array([moves.start]), np.zeros(1, np.int64), full)[0])
    if floor >= INF:
        return FullClear(None, 0, True, "proven: no full clear", 1)
    best, kept, reached, state_cut = None, 0, floor, False
    phases = (None, *WIDTHS, None) if len(moves.things) <= FEW else (WIDTHS[0], None, *WIDTHS[1:], None)
    for phase, width in enumerate(phases):
        if budget.expired():
            break
        if width is not None:
            found, states = _layers(moves, bound, full, budget, width=width)
            kept += states
            if found and (best is None or len(found[0]) < len(best[0])):
                best = found
            continue
        cap = min(QUICK, max_states) if phase < 2 else max_states
        limit = len(best[0]) - 1 if best else INF
        found, states, done, depth, cut = _layers(moves, bound, full, budget, limit=limit, max_states=cap)
        kept += states
        state_cut = cap == max_states and cut == "states"  # else the time ended it
        reached = max(reached, depth)
        if found:  # the proof's layers are breadth-first: the first full clear met is a shortest
            return _answer(place, moves, found, max(floor, len(found[0])), True, "proven optimal", kept)
        if done:
            if best is None:
                return FullClear(None, reached, True, "proven: no full clear", kept)
            return _answer(place, moves, best, len(best[0]), True, "proven optimal", kept)
    why = "state limit reached" if state_cut else "time limit reached"
    if best is None:
        return FullClear(None, reached, False, why, kept)
    return _answer(place, moves, best, min(reached, len(best[0])), False, why, kept)


def _answer(place, moves: Moves, found, lower: int, proven: bool, how: str, kept: int) -> FullClear:
    letters, cells, masks = found
    cells, masks = [*cells, moves.goal], [*masks, (1 << len(moves.things)) - 1]  # the last move: into the exit
    taken = [0] * len(moves.things)
    for move, (before, after) in enumerate(zip(masks, masks[1:]), 1):
        for k in range(len(taken)):
            if (after >> k) & 1 and not (before >> k) & 1:
                taken[k] = move
    return FullClear(letters, lower, proven, how, kept, tuple(place(c) for c in cells), tuple(taken))


#: The states a layer of the search expands at once: its moves (four a state, about 40 bytes each)
#: stay under 50 MB however wide the layer, and the time and the state budget are asked between.
CHUNK = 1 << 18


def _layers(moves: Moves, bound: Bounds, full: int, budget: Budget, width: int | None = None,
            limit: int = INF, max_states: int = MAX_STATES):
    """Breadth-first layers from the start. With ``width``, a beam: each layer keeps its
    ``width`` most promising states; returns (found, states). Without, the proof: it keeps
    every state whose moves plus bound are at most ``limit``, and returns (found, states, done,
    reached, cut): ``done`` when the layers ran out, ``reached`` the moves below which no full
    clear exists, ``cut`` what ended it early ("time", "states", or None). ``found`` is (letters,
    cells, masks) of the first full clear met, or None. A layer is expanded ``CHUNK`` states at a
    time, so that neither its memory nor its time runs past the budgets: the proof keeps at most
    ``max_states`` states (about 25 bytes each: ``Seen``'s key and the way back to it)."""
    if width is not None:  # no shortest full clear is longer: the cells it may rest on, for each thing and the exit
        limit = min(limit, (len(moves.things) + 1) * (len(np.unique(moves.end[moves.end >= 0])) + 1))
    cells, masks = np.array([moves.start], np.int32), np.zeros(1, np.int64)
    history = []  # per layer: (source index, direction) of each state, and the layer before
    shift = np.int64(len(moves.things))
    seen = Seen(np.array([moves.start << int(shift)], np.int64))
    kept, depth, took, cut = 1, 0, 0.0, None
    while len(cells):
        depth += 1
        # a layer that would not end within the time left is not begun (the last one took ``took``)
        if depth > limit or budget.left() <= took or (width is None and kept > max_states):
            cut = None if depth > limit else "states" if budget.left() > took else "time"
            break
        began = budget.now()
        parts, fresh = [], 0
        for low in range(0, len(cells), CHUNK):
            if low and budget.expired():
                cut = "time"
                break
            source, d, cell, mask, exited = step(moves, cells[low:low + CHUNK], masks[low:low + CHUNK])
            source += low
            win = np.flatnonzero(exited & (mask == full))
            if len(win):
                found = _unwind(history, cells, masks, source, d, win[0])
                return (found, kept) if width is not None else (found, kept, True, depth, None)
            stay = ~exited
            source, d, cell, mask = source[stay], d[stay], cell[stay], mask[stay]
            if width is None:  # the proof: only states that could still beat the limit
                keep = depth + bound.of(cell, mask, full) <= limit
                source, d, cell, mask = source[keep], d[keep], cell[keep], mask[keep]
            key = (cell << shift) | mask
            key, first = np.unique(key, return_index=True)
            source, d = source[first], d[first]
            if width is None:
                new = ~seen.holds(key)
                key, source, d = key[new], source[new], d[new]
                fresh += len(key)
                if kept + fresh > max_states:
                    cut = "states"
                    break
            parts.append((key, source.astype(np.int32), d.astype(np.int8)))
        if cut is not None:
            break
        key = np.concatenate([part[0] for part in parts])
        source = np.concatenate([part[1] for part in parts])
        d = np.concatenate([part[2] for part in parts])
        if len(parts) > 1:  # the first of each state over the chunks, as over the whole layer at once
            key, first = np.unique(key, return_index=True)
            source, d = source[first], d[first]
        if width is None:
            seen.add(key)
        elif len(key) > width:
            c, m = key >> shift, key & np.int64(full)
            score = (len(moves.things) - _ones(m)) + bound.of(c, m, full)
            pick = np.sort(np.argpartition(score, width)[:width])
            key, source, d = key[pick], source[pick], d[pick]
        history.append((source, d, cells, masks))
        cells, masks = (key >> shift).astype(np.int32), key & np.int64(full)
        kept += len(key)
        took = budget.now() - began
    if width is not None:
        return None, kept
    done = not len(cells) or depth > limit
    return None, kept, done, (limit + 1 if done and limit < INF else depth), cut


class Seen:
    """A set of state keys kept as a few sorted runs, merged as they grow (each run at most half
    the one before it), so that each layer is tested and added in a few vector passes."""

    def __init__(self, first: np.ndarray):
        self.runs = [np.sort(first)]

    def holds(self, keys: np.ndarray) -> np.ndarray:
        found = np.zeros(len(keys), bool)
        for run in self.runs:
            at = np.minimum(np.searchsorted(run, keys), len(run) - 1)
            found |= run[at] == keys
        return found

    def add(self, keys: np.ndarray) -> None:
        """Add sorted keys none of which it holds."""
        if not len(keys):
            return
        run = keys
        while self.runs and len(self.runs[-1]) <= 2 * len(run):
            run = np.sort(np.concatenate([self.runs.pop(), run]), kind="mergesort")
        self.runs.append(run)


def _unwind(history, cells, masks, source, d, win):
    """The letters, resting cells and masks of the full clear ending with move ``win`` out of the
    last layer (``cells``, ``masks``), up to the cell that move starts from."""
    letters = [DIRECTIONS[int(d[win])]]
    path_cells, path_masks = [], []
    at = int(source[win])
    for layer in reversed(history):
        src, dirs, before_cells, before_masks = layer
        path_cells.append(int(cells[at])), path_masks.append(int(masks[at]))
        letters.append(DIRECTIONS[int(dirs[at])])
        cells, masks, at = before_cells, before_masks, int(src[at])
    path_cells.append(int(cells[at])), path_masks.append(int(masks[at]))
    return "".join(reversed(letters)), path_cells[::-1], path_masks[::-1]


def _ones(masks: np.ndarray) -> np.ndarray:
    count = np.zeros(len(masks), np.int64)
    for shift in range(0, 64, 16):
        count += _POP[(masks >> shift) & 0xFFFF]
    return count


_POP = np.array([bin(k).count("1") for k in range(1 << 16)], np.int64)
