"""Coins and the full clear: the fewest moves that take every item and every coin, then exit.

A coin (``$``) is taken as an item is, by resting on it or sliding over it, but **the exit never
waits for coins**: it captures the player as soon as every *item* is taken, coins left or not.
So a level has two pars: the exit's (``designer.analysis.solver``, coins read as ice) and the
**full clear**'s, the fewest moves of a game that takes every coin and every item and then
enters the exit. A full clear never enters the open exit early: that ends the game.

The full clear is searched over the states the player reaches, (cell, things taken), one bit
per item and coin, never over the whole product (up to 40 things: ``designer.core.level``):

1. **A lower bound** from the cells alone (``Bounds``, built with the slides' table in
   ``designer.analysis.tour_tables``, each within the budget). For each thing k, ``take[k][x]`` is the
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
   when the state budget or the time runs out first, the answer says the bound it reached. A
   layer is expanded ``CHUNK`` states at a time, the time and the states asked between: the proof
   holds at most ``MAX_STATES`` states, about 25 bytes each (20 million: about 0.5 GB, and 1.4 GB
   in all at the most measured, tables and a chunk's moves included).

>>> from designer.core.level import Level
>>> tour = full_clear(Level.from_ascii("#####\\n#S.$#\\n#.#.#\\n#..G#\\n#####"))
>>> tour.moves, tour.stops, tour.proven
('rd', 2, True)
>>> full_clear(Level.from_ascii("#####\\n#S..#\\n#.#$#\\n#.G.#\\n#####")).moves   # the exit waits for nothing
'rdl'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from designer.analysis.tour_tables import (
    INF,
    LARGE_CELLS,
    Bounds,
    Moves,
    OutOfTime,
    bounds,
    slide_moves,
    step,
)
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.limits import FULL_CLEAR_STATES
from designer.core.rules import DIRECTIONS
from designer.core.terrain import Cell

#: How many states the proof keeps at most (the table's: ``designer.core.limits``).
MAX_STATES = FULL_CLEAR_STATES
#: The beam's widths, tried in turn while time is left (the best tour of all is kept).
WIDTHS = (1_000, 10_000, 30_000, 100_000)
#: The states of the first, short proof: a small level's full clear is proven there.
QUICK = 300_000
#: At most this many things, the short proof runs before any beam (it usually ends the search).
FEW = 8


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
        found: dict[str, Any] = {
            "moves": self.moves,
            "stops": self.stops,
            "lower_bound": self.lower_bound,
            "proven": self.proven,
            "how": self.how,
            "states": self.states,
        }
        if self.moves is not None:
            found["taken_at"] = list(self.taken)
        return found

    def words(self) -> str:
        """One line: ``103 moves (found; at least 65: time limit reached)`` and the like."""
        if self.moves is None:
            # 0: its tables not even built
            least = f"; at least {self.lower_bound}" if self.lower_bound else ""
            return "no full clear (proven)" if self.proven else f"none found ({self.how}{least})"
        if self.proven:
            return f"{self.stops} moves (proven optimal)"
        return f"{self.stops} moves (found, not proven: at least {self.lower_bound}; {self.how})"


def full_clear(
    level: Level,
    budget: Budget | float | None = None,
    max_states: int = MAX_STATES,
    things: tuple[Cell, ...] | None = None,
) -> FullClear:
    """The fewest moves that take every item and coin of ``level`` (or ``things``) and then exit,
    searched as the module docstring says, within ``budget`` (seconds, or a ``Budget``; 10 s by
    default) and ``max_states`` kept by the proof."""
    budget = budget if isinstance(budget, Budget) else Budget(10.0 if budget is None else budget)
    try:
        # no time: not even the tables
        if budget.expired() and level.height * level.width > LARGE_CELLS:
            raise OutOfTime
        moves = slide_moves(level, things, budget)
        found = bounds(moves, budget)
    except OutOfTime:  # the tables alone outlived the budget: nothing searched, no bound known
        return FullClear(None, 0, False, "time limit reached", 0)
    return search(moves, found, budget, max_states, level.cell)


def search(
    moves: Moves, bound: Bounds, budget: Budget, max_states: int = MAX_STATES, place=None
) -> FullClear:
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
    phases = (
        (None, *WIDTHS, None) if len(moves.things) <= FEW else (WIDTHS[0], None, *WIDTHS[1:], None)
    )
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
        found, states, done, depth, cut = _layers(
            moves, bound, full, budget, limit=limit, max_states=cap
        )
        kept += states
        state_cut = cap == max_states and cut == "states"  # else the time ended it
        reached = max(reached, depth)
        if found:  # the proof's layers are breadth-first: the first full clear met is a shortest
            return _answer(
                place, moves, found, max(floor, len(found[0])), True, "proven optimal", kept
            )
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
    # the last move: into the exit
    cells, masks = (
        [*cells, moves.goal],
        [*masks, (1 << len(moves.things)) - 1],
    )
    taken = [0] * len(moves.things)
    for move, (before, after) in enumerate(zip(masks, masks[1:]), 1):
        for k in range(len(taken)):
            if (after >> k) & 1 and not (before >> k) & 1:
                taken[k] = move
    return FullClear(
        letters, lower, proven, how, kept, tuple(place(c) for c in cells), tuple(taken)
    )


#: The states a layer of the search expands at once: its moves (four a state, about 40 bytes each)
#: stay under 50 MB however wide the layer, and the time and the state budget are asked between.
CHUNK = 1 << 18


def _layers(
    moves: Moves,
    bound: Bounds,
    full: int,
    budget: Budget,
    width: int | None = None,
    limit: int = INF,
    max_states: int = MAX_STATES,
):
    """Breadth-first layers from the start. With ``width``, a beam: each layer keeps its
    ``width`` most promising states; returns (found, states). Without, the proof: it keeps
    every state whose moves plus bound are at most ``limit``, and returns (found, states, done,
    reached, cut): ``done`` when the layers ran out, ``reached`` the moves below which no full
    clear exists, ``cut`` what ended it early ("time", "states", or None). ``found`` is (letters,
    cells, masks) of the first full clear met, or None. A layer is expanded ``CHUNK`` states at a
    time, so that neither its memory nor its time runs past the budgets: the proof keeps at most
    ``max_states`` states (about 25 bytes each: ``Seen``'s key and the way back to it)."""
    # no shortest full clear is longer: the cells it may rest on, for each thing and the exit
    if width is not None:
        limit = min(
            limit, (len(moves.things) + 1) * (len(np.unique(moves.end[moves.end >= 0])) + 1)
        )
    cells, masks = np.array([moves.start], np.int32), np.zeros(1, np.int64)
    history: list[
        tuple
    ] = []  # per layer: (source index, direction) of each state, and the layer before
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
            source, d, cell, mask, exited = step(
                moves, cells[low : low + CHUNK], masks[low : low + CHUNK]
            )
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
        # the first of each state over the chunks, as over the whole layer at once
        if len(parts) > 1:
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
        path_cells.append(int(cells[at]))
        path_masks.append(int(masks[at]))
        letters.append(DIRECTIONS[int(dirs[at])])
        cells, masks, at = before_cells, before_masks, int(src[at])
    path_cells.append(int(cells[at]))
    path_masks.append(int(masks[at]))
    return "".join(reversed(letters)), path_cells[::-1], path_masks[::-1]


def _ones(masks: np.ndarray) -> np.ndarray:
    count = np.zeros(len(masks), np.int64)
    for shift in range(0, 64, 16):
        count += _POP[(masks >> shift) & 0xFFFF]
    return count


_POP = np.array([bin(k).count("1") for k in range(1 << 16)], np.int64)
