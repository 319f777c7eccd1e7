"""Designing with items (``make --items N``, or ``*`` in a template): annealing over rocks and
items together, on the graph of states (``designer.core.items``).

The designer's portfolio first designs the plain level (no items: every stage of
``designer.search.design``); this module then places the items on it and anneals rocks, items and
ends at once. A chain climbs first (it takes no worse layout), then anneals; it takes one random
change at a time (an item moved to another free ice cell,
a free cell toggled between ice and rock, a rock moved when a rock budget is set, a snow tile
moved when snow is asked for, or the start or goal moved to another allowed cell) and keeps a worse layout with probability exp(-loss / heat).
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
import multiprocessing
import os
import sys
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from designer.analysis.classify import all_finish, items_matter_on, min_stops, pairs_matter
from designer.analysis.solver import costs_to_goal, walk
from designer.analysis.tidy import spare_tiles, tidy
from designer.core.budget import Budget, add_work
from designer.core.control import Cancelled, check, end_with_parent, signals_held
from designer.core.errors import DesignerError
from designer.core.items import States, state_table
from designer.core.kernels import reach
from designer.core.level import ICE, ITEM_CHAR, ROCK, SNOW, Cell, Level
from designer.core.request import LayoutRequest, RouteBand
from designer.core.rules import DIRECTIONS
from designer.search.executor import end_lanes, lane_result
from designer.search.goal import Goal
from designer.search.result import Design, DesignFailed
from designer.search.engines.rooms import per_stop_milli
from designer.search.state import Progress, Search, StageResult
from designer.search.tuning import EVALUATE_SECONDS, EVALUATE_STATE_SECONDS, ITEMS_PLAIN_SHARE, ITEMS_PLAIN_STOPS

#: What an invalid layout loses against every valid one (more than any level's min stops).
INVALID = 100_000
#: The heat of a chain: from HOT to COLD (in stops) over each epoch of EPOCH_STEPS steps (about 10 s
#: on a framed 12x12 with 3 items), the next one from the best again. 12x12, 3 items, --maximize
#: --time-limit 60, seeds 1-3: 130, 92, 116 stops; with epochs of 4,000 steps 94, 98, 98.
HOT, COLD, EPOCH_STEPS = 3.0, 0.15, 20000
#: The steps of the climb that starts a chain (under a second on a framed 12x12 with 3 items): every
#: change that loses nothing is taken, nothing worse.
CLIMB_STEPS = 1500
#: No limit on a chain's steps.
NO_LIMIT = 1 << 62
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
    floors: int = 0  # a room: the sum over its routes of min(stops, the route's floor)
    spare: int = 0  # with --tidy: placed snow tiles the layout does not need


def evaluate(level: Level, request: LayoutRequest, choices: bool = False) -> Scored:
    """The figures of a layout with items (see ``Scored``); a room's over all its routes (``stops``:
    the shortest route's; sound when every route is)."""
    if not request.is_room:
        return _evaluate(level, request.max_stops, choices, request.unique, tuple(request.portals or ()))
    shortest, floors, sound = None, 0, True
    for band in request.route_bands:
        route = Level(level.terrain, request.door(band.a), request.door(band.b), level.dialect,
                      level.items if band.items else ())
        scored = _evaluate(route, band.max_stops, False, False)
        shortest = scored.stops if shortest is None else min(shortest, scored.stops)
        floors += min(max(scored.stops, 0), band.min_stops)
        sound = sound and scored.sound
    return Scored(shortest, sound, floors=floors)


def _evaluate(level: Level, max_stops: int | None, choices: bool, unique: bool, pinned: tuple = ()) -> Scored:
    """The figures of a level with items: cheapest checks first; the choices (``choices``; the
    solutions with ``unique``) only of a sound layout."""
    states = state_table(level)
    add_work(EVALUATE_SECONDS + states.count * EVALUATE_STATE_SECONDS)  # the work clock's count of it
    stops, order = reach(states.dest, states.start, states.goal)
    k = int(stops[states.goal])
    if k < 0:
        return Scored(-1, False)
    if max_stops is not None and k > max_stops:
        return Scored(k, False)
    if not items_matter_on(states, k) or not all_finish(states, order):
        return Scored(k, False)
    if min_stops(level.swapped()) < 0:
        return Scored(k, False)
    if level.portals and not pairs_matter(level, k, pinned):
        return Scored(k, False)
    if not choices:
        return Scored(k, True)
    return Scored(k, True, *choice_figures(states, order, count_solutions=unique))


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


class Chain:
    """One annealing chain over a request's layouts with items (see the module docstring)."""

    def __init__(self, request: LayoutRequest, rng: np.random.Generator, objective: str = "stops"):
        self.request, self.rng, self.objective, self.meeting = request, rng, objective, False
        self.choices = objective != "stops" or request.asks_for_choices
        self.free = [cell for cell in request.free_cells()]
        self.free_set = set(self.free)
        self.pinned = set(request.pinned_items)
        self.pinned_portals = tuple(request.portals or ())
        self.start_cells, self.goal_cells = request.start_cells(), request.goal_cells()

    def evaluate(self, level: Level) -> Scored:
        scored = evaluate(level, self.request, self.choices)
        if self.request.tidy and self.request.placed_snow() and scored.sound and not self.request.is_room:
            scored = replace(scored, spare=self.spare_snow(level, scored))
        return scored

    def tidies(self, level: Level) -> bool:
        """Whether the verifier's ``--tidy`` can make ``level`` tidy (always, without ``--tidy``):
        its spare rocks turned into ice leave no snow tile spare (``designer.analysis.tidy``)."""
        return not self.request.tidy or self.request.is_room or tidy(self.request, level, self.request.min_stops) is not None

    def spare_snow(self, level: Level, scored: Scored) -> int:
        """With ``--tidy``: the placed snow tiles the layout does not need (``designer.analysis.tidy``;
        the floor is K, or maximizing its own stops). Spare rocks the verifier turns into ice itself;
        spare snow it cannot, so the chain avoids it."""
        floor = self.request.min_stops if self.meeting else scored.stops
        snow = [cell for cell in self.free if level.terrain[cell] == SNOW]
        return len(spare_tiles(self.request, level, floor, snow))

    def missing(self, scored: Scored) -> int:
        """How far a sound layout is from the request's other conditions: its spare snow (with
        ``--tidy``), the stops below K when the objective is the options, the options below
        ``--min-choices``, the solutions above one with ``--unique`` (0: it meets them all)."""
        request, short = self.request, scored.spare
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
        if self.objective == "options":
            return scored.options
        return scored.floors if self.request.is_room and self.meeting else scored.stops

    def placed_rocks(self, terrain: np.ndarray) -> int:
        return sum(int(terrain[cell] == ROCK) for cell in self.free)

    def open_cells(self, level: Level) -> list[Cell]:
        """Free ice cells no end, item or portal takes: where an item, a portal (or a rock) may go."""
        taken = {level.start, level.goal, *level.items, *(src for src, _ in level.portals), *self.request.portal_cells}
        return [cell for cell in self.free if level.terrain[cell] == ICE and cell not in taken]

    def with_items(self, level: Level) -> Level:
        """``level`` (a plain one) with the pinned items and ``request.items`` more on random open
        cells, and ``request.teleports`` pairs of portals on others."""
        level = level.replace(items=tuple(self.pinned), portals=self.pinned_portals)
        cells = self.open_cells(level)
        wanted = self.request.items + 2 * self.request.teleports
        if len(cells) < wanted:
            return level
        picked = [cells[k] for k in self.rng.choice(len(cells), size=wanted, replace=False)]
        items, ends = picked[:self.request.items], picked[self.request.items:]
        portals = [pair for a, b in zip(ends[::2], ends[1::2]) for pair in ((a, b), (b, a))]
        return level.replace(items=tuple(sorted(self.pinned | set(items))), portals=self.pinned_portals + tuple(portals))

    def neighbour(self, level: Level) -> Level | None:
        """One random change of ``level`` (None when the change drawn cannot be made)."""
        rng, request = self.rng, self.request
        roll = rng.random()
        movable = [cell for cell in level.items if cell not in self.pinned]
        open_cells = self.open_cells(level)
        placed = [src for src, _ in level.portals if src not in request.portal_cells]
        if placed and roll < 0.15 and open_cells:  # one end of a teleport pair moved
            old = placed[rng.integers(len(placed))]
            new = open_cells[rng.integers(len(open_cells))]
            return level.replace(portals=tuple((new if a == old else a, new if b == old else b)
                                               for a, b in level.portals))
        if roll < 0.3 and movable and open_cells:  # an item moved
            old = movable[rng.integers(len(movable))]
            new = open_cells[rng.integers(len(open_cells))]
            return level.replace(items=tuple(sorted((set(level.items) - {old}) | {new})))
        if roll < 0.38:  # an end moved
            which = rng.integers(2)
            cells = self.start_cells if which == 0 else self.goal_cells
            cell = cells[rng.integers(len(cells))]
            if cell in (level.start, level.goal) or cell in level.items or level.terrain[cell] == SNOW or \
                    any(cell in pair for pair in level.portals):
                return None
            terrain = level.terrain.copy()
            old = level.start if which == 0 else level.goal
            fixed = request.fixed_tile(old)
            terrain[old] = ICE if fixed is None else fixed  # a gap in the frame closes again
            terrain[cell] = ICE
            start, goal = (cell, level.goal) if which == 0 else (level.start, cell)
            return Level(terrain, start, goal, level.dialect, level.items, level.portals, level.floors)
        if roll < 0.45 and request.placed_snow():  # a snow tile moved to another open cell
            snow = [cell for cell in self.free if level.terrain[cell] == SNOW]
            if not snow or not open_cells:
                return None
            terrain = level.terrain.copy()
            terrain[snow[rng.integers(len(snow))]] = ICE
            terrain[open_cells[rng.integers(len(open_cells))]] = SNOW
            return Level(terrain, level.start, level.goal, level.dialect, level.items, level.portals, level.floors)
        terrain = level.terrain.copy()
        toggled = self.free[rng.integers(len(self.free))]
        if toggled in (level.start, level.goal) or toggled in level.items or terrain[toggled] == SNOW or \
                any(toggled in pair for pair in level.portals):
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
        return Level(terrain, level.start, level.goal, level.dialect, level.items, level.portals, level.floors)

    def run(self, plain: Level, budget: Budget, *, target: int | None,
            on_best: Callable[[int, Level], None] = lambda stops, level: None,
            rejected: Callable[[Level, str], bool] = lambda level, phase: False,
            stop: Callable[[], bool] = lambda: False,
            limit: Callable[[], int] = lambda: NO_LIMIT) -> tuple[Level | None, int]:
        """Anneal from ``plain`` until ``budget`` is spent, ``stop()``, or the chain's steps pass
        ``limit()``, or (``target`` given) a valid layout meeting ``target`` is found (``met_at``:
        the step it was found at). The heat falls with the steps, not the clock, so that a seed
        gives the same chain on any machine. The first ``CLIMB_STEPS`` steps are a climb (no worse
        layout is taken), the rest the annealing; ``rejected(level, phase)``: the verifier refused
        the level found in that phase (it is not kept as the best). Returns the best valid layout and its min stops ((None, -1): none);
        ``self.kept`` holds the best few, by the objective."""
        current, scored = None, None
        self.meeting = target is not None  # a room meeting its floors counts them, not its shortest route
        for _ in range(PLACEMENTS):  # the best of many placements on the plain level
            if budget.expired():
                break
            candidate = self.with_items(plain)
            score = self.evaluate(candidate)
            if scored is None or self.score(score) > self.score(scored):
                current, scored = candidate, score
        if current is None:
            self.kept, self.met_at = {}, None
            return None, -1
        best, best_value, best_stops = None, -1, -1
        self.phase = "climb"  # the first CLIMB_STEPS steps take no worse layout: a climb; then the annealing
        self.kept: dict[Level, tuple[int, int, str]] = {}  # the best valid layouts (at most KEEP): (objective, stops, phase)

        def consider(level: Level, score: Scored) -> None:
            nonlocal best, best_value, best_stops
            if not self.valid(score):
                return
            value = self.score(score)
            if self.meeting and target is not None and value >= target and not self.tidies(level):
                return  # it would meet K, but the verifier could not tidy it (a spare snow tile)
            if len(self.kept) < KEEP or (value, score.stops) > min(self.kept.values())[:2]:
                self.kept[level] = (value, score.stops, self.phase)
                if len(self.kept) > KEEP:
                    del self.kept[min(self.kept, key=self.kept.get)]
            if value > best_value and not rejected(level, self.phase):
                best, best_value, best_stops = level, value, score.stops
                on_best(best_stops, best)

        consider(current, scored)
        self.met_at, steps, epoch = None, 0, 0
        while not budget.expired() and not stop() and steps <= limit():
            if target is not None and best_value >= target:
                self.met_at = steps
                break
            if steps == CLIMB_STEPS:
                self.phase = "anneal"
            if epoch > EPOCH_STEPS and best is not None and self.phase == "anneal":
                current, scored, epoch = best, self.evaluate(best), 0  # reheat from the best
            heat = HOT * (COLD / HOT) ** min(1.0, epoch / EPOCH_STEPS)
            steps, epoch = steps + 1, epoch + 1 if self.phase == "anneal" else 0
            candidate = self.neighbour(current)
            if candidate is None:
                continue
            score = self.evaluate(candidate)
            loss = self.score(scored) - self.score(score)
            if loss <= 0 or (self.phase == "anneal" and self.rng.random() < math.exp(-loss / heat)):
                current, scored = candidate, score
                consider(current, scored)
        return best, best_stops


def chains(request: LayoutRequest, plain: Level, budget: Budget, rng: np.random.Generator, workers: int, *,
           target: int | None, objective: str = "stops") -> list[tuple[int, int, str, Level]]:
    """``workers`` chains from ``plain``, each in a process of its own (Linux: forked, so that
    each has a core; the chains are numpy between compiled calls), each with its own random
    stream drawn from ``rng``; a signal is held while they run (it sets the cancel token, and is
    raised once they are ended). The best valid layouts, (objective, stops, phase, level), best first.

    Meeting ``target``, the chain that met it in the fewest steps wins (the first of them by
    number): a chain that meets it at step s has the others stop after step s, so the one handed
    back is the same whichever core was faster. Maximizing, every chain runs to the end of the
    budget, and their bests are merged."""


    context = multiprocessing.get_context("fork")
    stop = context.Event()
    limit = context.Value("q", NO_LIMIT)  # the fewest steps any chain met the target in
    shared = budget.forked(stop)  # what the chains read: the machine's clock, or each its own work
    jobs = [(request, plain, stream, target, objective) for stream in rng.spawn(workers)]
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_chain,
                             initargs=(shared, limit, os.getpid())) as pool:
        futures: list = []
        try:
            with signals_held() as arrived:
                futures = [pool.submit(_chain, job) for job in jobs]
                pending = set(futures)
                while pending and not arrived and not budget.cancelled():
                    _, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                if arrived:
                    raise Cancelled(arrived[0])
                if pending:  # cancelled
                    stop.set()
                    end_lanes(pool)
                    return []
                results = [lane_result(future, arrived) for future in futures]
        except BaseException:
            stop.set()
            end_lanes(pool)
            raise
    met = [(met_at, k) for k, (met_at, _) in enumerate(results) if met_at is not None]
    chosen = [results[min(met)[1]]] if met else results
    return sorted((one for _, kept in chosen for one in kept), key=lambda one: (-one[0], -one[1]))


def _start_chain(budget: Budget, limit, parent: int) -> None:
    """Called first in each forked process: what the chains share (inherited, not pickled: the
    budget's event ends them all, and ``limit`` holds the fewest steps the target was met in)."""
    end_with_parent(parent)  # Ctrl-C reaches the whole group: the caller ends the chains
    _shared.update(budget=budget, limit=limit)


_shared: dict = {}


def _chain(job) -> tuple[int | None, list[tuple[int, int, str, Level]]]:
    request, plain, stream, target, objective = job
    chain, limit = Chain(request, stream, objective), _shared["limit"]
    chain.run(plain, _shared["budget"], target=target, limit=lambda: limit.value)
    if chain.met_at is not None:
        with limit.get_lock():
            limit.value = min(limit.value, chain.met_at)
    return chain.met_at, [(value, stops, phase, level) for level, (value, stops, phase) in chain.kept.items()]


def opened_template(request: LayoutRequest, rng: np.random.Generator) -> Level:
    """The first layout of a template with floors, or of a vault: every free cell ice, the ends on
    their pins or on random allowed cells (a vault's on its door), floors and portals as drawn."""
    terrain = np.array([[ICE if tile < 0 else tile for tile in row] for row in request.fixed_grid()], np.uint8)
    starts, goals = request.start_cells(), request.goal_cells()
    start = starts[rng.integers(len(starts))]
    if request.is_vault:
        terrain[start] = ICE
        return Level(terrain, start, start, "canonical", tuple(request.pinned_items))
    goals = [cell for cell in goals if cell != start]
    if not goals:
        raise DesignerError("no two cells (free or ice) are left for the start and the goal")
    goal = goals[rng.integers(len(goals))]
    terrain[start] = terrain[goal] = ICE
    return Level(terrain, start, goal, "canonical", (), tuple(request.portals or ()), request.floor_values)


def design_with_items(request: LayoutRequest, *, plain_design: Callable, seed: int, time_limit: float,
                      workers: int | None, maximize: bool, maximize_choices: bool, exclude: tuple[Level, ...],
                      progress, method: str, cancel) -> Design:
    """A level (or a room) with items: the plain one first, by ``plain_design`` (the portfolio's
    ``design``, ``ITEMS_PLAIN_SHARE`` of the time; meeting K, a plain level of ``K -
    ITEMS_PLAIN_STOPS`` stops per item, which the items then lengthen), then the items placed and
    annealed with the rocks: one chain per worker. Meeting K, the first verified level;
    maximizing (stops, or with ``maximize_choices`` the options a stop along the solution, K
    kept), the best one (never proven optimal). ``--min-choices`` and ``--unique`` are conditions
    every layout the chain keeps meets."""


    if method != "auto":
        model = "the SAT loop" if method == "sat" else "the CP-SAT model"
        raise DesignerError(f"{model} does not pose items, portals to place, floors or wrap-around "
                            "(docs/model.md): --items, a template's items, --teleports and a template's floors or "
                            "wrap need --method auto")
    if request.is_room and (request.asks_for_choices or maximize_choices):
        raise DesignerError("the choices along a room's routes are not counted with items: --min-choices, --unique "
                            "and --maximize-choices need a room without items")
    progress = progress or Progress()
    budget = Budget(time_limit, ended=cancel)

    def lowered(stops: int) -> int:
        return 1 if maximize else max(1, stops - ITEMS_PLAIN_STOPS * (request.item_count + request.teleports))

    routes = None if request.routes is None else tuple(
        RouteBand(band.a, band.b, None if band.min_stops is None else lowered(band.min_stops)) for band in request.routes)
    plain_rows = None if request.template is None else tuple(row.replace(ITEM_CHAR, ".") for row in request.template)
    plain = replace(request, items=0, teleports=0, floors=None, portals=None, template=plain_rows, min_stops=lowered(request.min_stops), max_stops=None,
                    tidy=False, min_choices=None, unique=False, routes=routes, first=True)  # a start: no decisions
    if request.floors or request.is_vault:  # the portfolio's stages know one grid and two ends: the
        start = opened_template(request, np.random.default_rng(seed))  # chains start from the template itself
    else:
        progress.update(phase="items: the plain level first")
        try:
            start = plain_design(plain, seed=seed, time_limit=budget.left() * ITEMS_PLAIN_SHARE, workers=workers,
                                 maximize=maximize, progress=progress, cancel=cancel).level
        except DesignFailed:  # no plain level that long (a proof for the plain level only: items revisit cells)
            check(cancel)
            start = plain_design(replace(plain, min_stops=1, routes=None if plain.routes is None else tuple(
                RouteBand(band.a, band.b) for band in plain.routes)), seed=seed,
                time_limit=budget.left() * ITEMS_PLAIN_SHARE, workers=workers, maximize=False, progress=progress,
                cancel=cancel).level
    goal = (Goal.maximize("per_stop") if maximize_choices else Goal.maximize() if maximize
            else Goal.meet(request.min_stops))
    search = Search(request, goal, seed=seed, budget=budget, workers=workers or os.cpu_count() or 1,
                    method=method, excluded=set(exclude), progress=progress)
    target = None if goal.maximizing else request.room_target() if request.is_room else request.min_stops
    lanes = search.workers if sys.platform.startswith("linux") else 1
    extras = ", ".join(part for part in (f"{request.item_count} items" if request.item_count else "",
                                          f"{request.teleports} teleport pairs" if request.teleports else "",
                                          f"{len(request.floors)} floors" if request.floors else "") if part)
    progress.update(phase=f"items: annealing rocks and {extras}"
                          + (f", {lanes} chains" if lanes > 1 else ""))

    stage = ("items and portals" if request.item_count and (request.teleports or request.portals)
             else "items" if request.item_count else "portals")  # what the chains placed

    def rejected(level: Level, phase: str) -> bool:
        found = search.verify(level, f"{stage} {phase}")
        if found is not None:
            search.absorb(StageResult(design=found))
        return found is None

    while search.best is None and not budget.expired():
        if lanes == 1:
            Chain(request, search.rng, goal.objective).run(start, budget, target=target, rejected=rejected,
                                                          on_best=lambda stops, level: search.seen(stops))
            continue
        found = chains(request, start, budget, search.rng, lanes, target=target, objective=goal.objective)
        for _, stops, phase, level in found:  # the best the verifier passes
            search.seen(stops)
            if not rejected(level, phase):
                break
        if found:
            start = found[0][3].replace(items=request.pinned_items if request.is_vault else (), portals=())
    if search.best is None:
        raise search.timed_out()
    return search.finish_maximize(proven=False) if goal.maximizing else search.best
