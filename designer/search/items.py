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

from designer.analysis.classify import can_finish, min_stops
from designer.analysis.solver import costs_to_goal, walk
from designer.core.budget import Budget
from designer.core.items import States, state_table
from designer.core.kernels import reach
from designer.core.level import ICE, ROCK, SNOW, Cell, Level
from designer.core.request import LayoutRequest
from designer.core.rules import DIRECTIONS
from designer.search.rooms import per_stop_milli

#: What an invalid layout loses against every valid one (more than any level's min stops).
INVALID = 100_000
#: The heat of a chain: from HOT to COLD (in stops) over each epoch of EPOCH_SECONDS.
HOT, COLD, EPOCH_SECONDS = 3.0, 0.15, 8.0
#: Random placements of the items tried on the plain level before the chain starts.
PLACEMENTS = 200
#: The best valid layouts a chain in a process of its own hands back, for the verifier.
KEEP = 6


@dataclass(frozen=True)
class Scored:
    """A layout's figures: its min stops on the states (-1: the goal cannot be reached), whether
    it is **sound** (strong, reversible, within the band's top, every item mattering), and, when
    the request counts choices, the options along its printed solution and the number of
    fewest-moves solutions."""

    stops: int
    sound: bool
    options: int = 0
    solutions: int = 0


def evaluate(level: Level, request: LayoutRequest, choices: bool = False) -> Scored:
    """The figures of a layout with items (see ``Scored``): cheapest checks first; the choices
    (``choices``) only of a sound layout.

    One table of states serves every item's check: the level without item j plays exactly as the
    level with item j taken before the first move (the goal then opens once the others are taken),
    so its min stops is the distance from the state (start, {j}) to the goal."""
    states = state_table(level)
    stops, order = reach(states.dest, states.start, states.goal)
    k = int(stops[states.goal])
    if k < 0:
        return Scored(-1, False)
    if request.max_stops is not None and k > request.max_stops:
        return Scored(k, False)
    for j in range(len(level.items)):
        without = reach(states.dest, states.start + (states.cells << j), states.goal)[0][states.goal]
        if without >= k:
            return Scored(k, False)  # item j lies on the way
    if not _all_finish(states.dest, states.goal, order):
        return Scored(k, False)
    if min_stops(level.swapped()) < 0:
        return Scored(k, False)
    if not choices:
        return Scored(k, True)
    return Scored(k, True, *choice_figures(states, order, count_solutions=request.unique))


def choice_figures(states: States, order: np.ndarray, count_solutions: bool) -> tuple[int, int]:
    """(options along the printed solution, fewest-moves solutions: 0 unless ``count_solutions``)
    of a solvable level's states, as ``designer.analysis.graph.analyze`` counts them."""
    costs = costs_to_goal(states, "moves", order)
    path = [states.start]
    for letter in walk(states, costs).moves:
        path.append(int(states.dest[DIRECTIONS.index(letter), path[-1]]))
    options = int((states.dest[:, path[:-1]] >= 0).sum()) - (len(path) - 1)
    if not count_solutions:
        return options, 0
    left = costs.primary
    ways = {states.goal: 1}
    for here in sorted((s for s in left if left[s] <= left[states.start]), key=left.get):
        if here != states.goal:
            ways[here] = sum(ways.get(int(t), 0) for t in states.dest[:, here] if t >= 0 and left.get(int(t)) == left[here] - 1)
    return options, ways[states.start]


def _all_finish(dest: np.ndarray, goal: int, order: np.ndarray) -> bool:
    """Whether the goal can be reached from every state of ``order`` (the states reached from the
    start, which no move leaves): ``can_finish`` on that subgraph alone."""
    local = np.full(dest.shape[1], -1, np.int64)
    local[order] = np.arange(len(order))
    sub = np.where(dest[:, order] >= 0, local[np.maximum(dest[:, order], 0)], -1)
    return bool(can_finish(sub, int(local[goal])).all())


class Chain:
    """One annealing chain over a request's layouts with items (see the module docstring)."""

    def __init__(self, request: LayoutRequest, rng: np.random.Generator, objective: str = "stops"):
        self.request, self.rng, self.objective = request, rng, objective
        self.choices = objective != "stops" or request.asks_for_choices
        self.free = [cell for cell in request.free_cells()]
        self.free_set = set(self.free)
        self.pinned = set(request.pinned_items)
        self.start_cells, self.goal_cells = request.start_cells(), request.goal_cells()

    def evaluate(self, level: Level) -> Scored:
        return evaluate(level, self.request, self.choices)

    def missing(self, scored: Scored) -> int:
        """How far a sound layout is from the request's other conditions: the stops below K when
        the objective is the options, the options below ``--min-choices``, the solutions above one
        with ``--unique`` (0: it meets them all)."""
        request, short = self.request, 0
        if self.objective != "stops":
            short += max(0, request.min_stops - scored.stops)
        if request.min_choices is not None:
            short += max(0, request.min_choices - scored.options)
        if request.unique:
            short += max(0, scored.solutions - 1)
        return short

    def valid(self, scored: Scored) -> bool:
        return scored.sound and not self.missing(scored)

    def score(self, scored: Scored) -> int:
        """What the chain raises: the objective of a valid layout; far below every valid one, how
        close a sound layout is to the other conditions; further below, an unsound one's stops."""
        if not scored.sound:
            return scored.stops - INVALID
        missing = self.missing(scored)
        if missing:
            return -missing - INVALID // 2
        if self.objective == "per_stop":
            return per_stop_milli(scored.options, scored.stops)
        return scored.options if self.objective == "options" else scored.stops

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
            rejected: Callable[[Level], bool] = lambda level: False,
            stop: Callable[[], bool] = lambda: False) -> tuple[Level | None, int]:
        """Anneal from ``plain`` until ``budget`` is spent or ``stop()``, or (``target`` given) a
        valid layout of at least ``target`` stops is found. ``rejected(level)``: the verifier
        refused it (it is not kept as the best). Returns the best valid layout and its min stops
        ((None, -1): none); ``self.kept`` holds the best few, by stops."""
        current, scored = None, None
        for _ in range(PLACEMENTS):  # the best of many placements on the plain level
            if budget.expired():
                break
            candidate = self.with_items(plain)
            score = self.evaluate(candidate)
            if scored is None or self.score(score) > self.score(scored):
                current, scored = candidate, score
        if current is None:
            self.kept = {}
            return None, -1
        best, best_value, best_stops = None, -1, -1
        self.kept: dict[Level, tuple[int, int]] = {}  # the best valid layouts seen (at most KEEP): (objective, stops)

        def consider(level: Level, score: Scored) -> None:
            nonlocal best, best_value, best_stops
            if not self.valid(score):
                return
            value = self.score(score)
            if len(self.kept) < KEEP or (value, score.stops) > min(self.kept.values()):
                self.kept[level] = (value, score.stops)
                if len(self.kept) > KEEP:
                    del self.kept[min(self.kept, key=self.kept.get)]
            if value > best_value and not rejected(level):
                best, best_value, best_stops = level, value, score.stops
                on_best(best_stops, best)

        consider(current, scored)
        epoch_start = budget.elapsed()
        while not budget.expired() and not stop() and (target is None or best_stops < target):
            if budget.elapsed() - epoch_start > EPOCH_SECONDS and best is not None:
                current, scored, epoch_start = best, self.evaluate(best), budget.elapsed()  # reheat
            progress = min(1.0, (budget.elapsed() - epoch_start) / EPOCH_SECONDS)
            heat = HOT * (COLD / HOT) ** progress
            candidate = self.neighbour(current)
            if candidate is None:
                continue
            score = self.evaluate(candidate)
            loss = self.score(scored) - self.score(score)
            if loss <= 0 or self.rng.random() < math.exp(-loss / heat):
                current, scored = candidate, score
                consider(current, scored)
        return best, best_stops


def chains(request: LayoutRequest, plain: Level, budget: Budget, rng: np.random.Generator, workers: int, *,
           target: int | None, objective: str = "stops") -> list[tuple[int, int, Level]]:
    """``workers`` chains from ``plain``, each in a process of its own (Linux: forked, so that
    each has a core; the chains are numpy between compiled calls), each with its own random
    stream drawn from ``rng``. They end together when one reaches ``target``, when ``budget`` is
    spent, or at a cancel (a signal is held while they run, sets the cancel token, and is raised
    once they are ended). The best valid layouts of all, (objective, stops, level), best first."""
    import multiprocessing
    import os
    from concurrent.futures import FIRST_COMPLETED, wait

    from designer.core.control import Cancelled, signals_held
    from designer.search.ends import end_lanes

    context = multiprocessing.get_context("fork")
    stop = context.Event()
    shared = Budget(budget.time_limit, budget.t0, stop)  # one clock: perf_counter is the machine's
    jobs = [(request, plain, stream, target, objective) for stream in rng.spawn(workers)]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_chain,
                             initargs=(shared, os.getpid())) as pool:
        futures: set = set()
        try:
            with signals_held() as arrived:
                futures = {pool.submit(_chain, job) for job in jobs}
                pending = set(futures)
                while pending and not arrived and not budget.cancelled():
                    done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                    if any(target is not None and f.result() and f.result()[0][0] >= target for f in done):
                        stop.set()  # one chain met the target: the others end
            if arrived:
                raise Cancelled(arrived[0])
            if pending:  # cancelled
                stop.set()
                end_lanes(pool)
                return []
            found = [one for future in futures for one in future.result()]
        except BaseException:
            stop.set()
            end_lanes(pool)
            raise
    return sorted(found, key=lambda one: (-one[0], -one[1]))


def _start_chain(budget: Budget, parent: int) -> None:
    """Called first in each forked process: the budget the chains share (inherited, not pickled:
    its event ends them all)."""
    from designer.core.control import end_with_parent

    global _budget
    end_with_parent(parent)  # Ctrl-C reaches the whole group: the caller ends the chains
    _budget = budget


_budget: Budget | None = None


def _chain(job) -> list[tuple[int, int, Level]]:
    request, plain, stream, target, objective = job
    chain = Chain(request, stream, objective)
    chain.run(plain, _budget, target=target)
    return [(value, stops, level) for level, (value, stops) in chain.kept.items()]
