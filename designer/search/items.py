"""Designing with items (``make --items N``, or ``*`` in a template): annealing over rocks and
items together, on the graph of states (``designer.core.items``).

The designer's portfolio first designs the plain level (no items: every stage of
``designer.search.design``); this module then places the items on it and anneals rocks, items and
ends at once. A chain takes one random change at a time (an item moved to another free ice cell,
a free cell toggled between ice and rock, a rock moved when a rock budget is set, or the start or
goal moved to another allowed cell) and keeps a worse layout with probability exp(-loss / heat).
A layout is **valid** when it is strong and reversible on its states, within the request's band,
and every item matters (the fewest-moves solution is shorter without it); an invalid one is
scored far below every valid one, so the chain walks back to validity, and only valid layouts are
ever kept as the best. The best goes to the one verifier like any other level.

The CP-SAT model does not pose the graph of states (docs/model.md says why), and the compiled
chains count cells, not states: this chain is numpy over the state tables, with the compiled
breadth-first search (``kernels.reach``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from designer.analysis.classify import can_finish, items_matter, min_stops
from designer.core.budget import Budget
from designer.core.items import state_table
from designer.core.kernels import reach
from designer.core.level import ICE, ROCK, SNOW, Cell, Level
from designer.core.request import LayoutRequest

#: What an invalid layout loses against every valid one (more than any level's min stops).
INVALID = 100_000
#: The heat of a chain: from HOT to COLD (in stops) over each epoch of EPOCH_SECONDS.
HOT, COLD, EPOCH_SECONDS = 3.0, 0.15, 8.0
#: Random placements of the items tried on the plain level before the chain starts.
PLACEMENTS = 200


@dataclass(frozen=True)
class Scored:
    """A layout's figures: its min stops on the states (-1: the goal cannot be reached) and
    whether it is valid (see the module docstring)."""

    stops: int
    valid: bool

    @property
    def score(self) -> int:
        return self.stops if self.valid else self.stops - INVALID


def evaluate(level: Level, request: LayoutRequest) -> Scored:
    """The figures of a layout with items (see ``Scored``): cheapest checks first."""
    states = state_table(level)
    stops, order = reach(states.dest, states.start, states.goal)
    k = int(stops[states.goal])
    if k < 0:
        return Scored(-1, False)
    if request.max_stops is not None and k > request.max_stops:
        return Scored(k, False)
    if not items_matter(level, k) or not can_finish(states.dest, states.goal)[order].all():
        return Scored(k, False)
    return Scored(k, min_stops(level.swapped()) >= 0)


class Chain:
    """One annealing chain over a request's layouts with items (see the module docstring)."""

    def __init__(self, request: LayoutRequest, rng: np.random.Generator):
        self.request, self.rng = request, rng
        self.free = [cell for cell in request.free_cells()]
        self.free_set = set(self.free)
        self.pinned = set(request.pinned_items)
        self.start_cells, self.goal_cells = request.start_cells(), request.goal_cells()

    def placed_rocks(self, terrain: np.ndarray) -> int:
        return sum(int(terrain[cell] == ROCK) for cell in self.free)

    def open_cells(self, level: Level) -> list[Cell]:
        """Free ice cells no end or item takes: where an item (or a rock) may go."""
        taken = {level.start, level.goal, *level.items}
        return [cell for cell in self.free if level.terrain[cell] == ICE and cell not in taken]

    def with_items(self, level: Level) -> Level:
        """``level`` (a plain one) with the pinned items and ``request.items`` more on random open cells."""
        level = level.replace(items=tuple(self.pinned))
        cells = self.open_cells(level)
        if len(cells) < self.request.items:
            return level
        picked = self.rng.choice(len(cells), size=self.request.items, replace=False)
        return level.replace(items=tuple(sorted(self.pinned | {cells[k] for k in picked})))

    def neighbour(self, level: Level) -> Level | None:
        """One random change of ``level`` (None when the change drawn cannot be made)."""
        rng, request = self.rng, self.request
        roll = rng.random()
        movable = [cell for cell in level.items if cell not in self.pinned]
        open_cells = self.open_cells(level)
        if roll < 0.3 and movable and open_cells:  # an item moved
            old = movable[rng.integers(len(movable))]
            new = open_cells[rng.integers(len(open_cells))]
            return level.replace(items=tuple(sorted((set(level.items) - {old}) | {new})))
        if roll < 0.38:  # an end moved
            which = rng.integers(2)
            cells = self.start_cells if which == 0 else self.goal_cells
            cell = cells[rng.integers(len(cells))]
            if cell in (level.start, level.goal) or cell in level.items or level.terrain[cell] == SNOW:
                return None
            terrain = level.terrain.copy()
            old = level.start if which == 0 else level.goal
            fixed = request.fixed_tile(old)
            terrain[old] = ICE if fixed is None else fixed  # a gap in the frame closes again
            terrain[cell] = ICE
            start, goal = (cell, level.goal) if which == 0 else (level.start, cell)
            return Level(terrain, start, goal, level.dialect, level.items)
        terrain = level.terrain.copy()
        toggled = self.free[rng.integers(len(self.free))]
        if toggled in (level.start, level.goal) or toggled in level.items or terrain[toggled] == SNOW:
            return None
        if terrain[toggled] == ROCK:
            terrain[toggled] = ICE
        else:
            if request.max_rocks is not None and self.placed_rocks(terrain) >= request.max_rocks:
                rocks = [cell for cell in self.free if terrain[cell] == ROCK]
                if not rocks:
                    return None
                terrain[rocks[rng.integers(len(rocks))]] = ICE  # the budget is full: a rock moves
            terrain[toggled] = ROCK
        return Level(terrain, level.start, level.goal, level.dialect, level.items)

    def run(self, plain: Level, budget: Budget, *, target: int | None,
            on_best: Callable[[int, Level], None] = lambda stops, level: None,
            rejected: Callable[[Level], bool] = lambda level: False) -> tuple[Level | None, int]:
        """Anneal from ``plain`` until ``budget`` is spent, or (``target`` given) a valid layout
        of at least ``target`` stops is found. ``rejected(level)``: the verifier refused it (it is
        not kept as the best). Returns the best valid layout and its min stops ((None, -1): none)."""
        current, scored = None, None
        for _ in range(PLACEMENTS):  # the best of many placements on the plain level
            if budget.expired():
                break
            candidate = self.with_items(plain)
            score = evaluate(candidate, self.request)
            if scored is None or score.score > scored.score:
                current, scored = candidate, score
        if current is None:
            return None, -1
        best, best_stops = None, -1

        def consider(level: Level, score: Scored) -> None:
            nonlocal best, best_stops
            if score.valid and score.stops > best_stops and not rejected(level):
                best, best_stops = level, score.stops
                on_best(best_stops, best)

        consider(current, scored)
        epoch_start = budget.elapsed()
        while not budget.expired() and (target is None or best_stops < target):
            if budget.elapsed() - epoch_start > EPOCH_SECONDS and best is not None:
                current, scored, epoch_start = best, evaluate(best, self.request), budget.elapsed()  # reheat
            progress = min(1.0, (budget.elapsed() - epoch_start) / EPOCH_SECONDS)
            heat = HOT * (COLD / HOT) ** progress
            candidate = self.neighbour(current)
            if candidate is None:
                continue
            score = evaluate(candidate, self.request)
            loss = scored.score - score.score
            if loss <= 0 or self.rng.random() < math.exp(-loss / heat):
                current, scored = candidate, score
                consider(current, scored)
        return best, best_stops
