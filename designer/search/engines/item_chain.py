"""One annealing chain over rocks, items and ends at once (``ItemChain``): a climb first, then
annealing, one random change at a time, scored by ``designer.search.engines.item_scores``."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from designer.analysis.tidy import spare_tiles, tidy
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.core.terrain import ICE, ROCK, SNOW, Cell
from designer.search.engines.item_scores import INVALID, Scored, evaluate
from designer.search.engines.rooms import per_stop_milli

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


class ItemChain:
    """One annealing chain over a request's layouts with items (see the module docstring)."""

    #: After ``run``: the best valid layouts (at most KEEP), each (objective, stops, phase), and the
    #: step the target was met at (None: not met).
    kept: dict[Level, tuple[int, int, str]]
    met_at: int | None

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
        if (
            self.request.tidy
            and self.request.placed_snow()
            and scored.sound
            and request_kind(self.request).tidies
        ):
            scored = replace(scored, spare=self.spare_snow(level, scored))
        return scored

    def tidies(self, level: Level) -> bool:
        """Whether the verifier's ``--tidy`` can make ``level`` tidy (always, without ``--tidy``):
        its spare rocks turned into ice leave no snow tile spare (``designer.analysis.tidy``)."""
        return (
            not self.request.tidy
            or not request_kind(self.request).tidies
            or tidy(self.request, level, self.request.min_stops) is not None
        )

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
        return request_kind(self.request).met(scored, self.meeting)

    def placed_rocks(self, terrain: np.ndarray) -> int:
        return sum(int(terrain[cell] == ROCK) for cell in self.free)

    def open_cells(self, level: Level) -> list[Cell]:
        """Free ice cells no end, item or portal takes: where an item, a portal (or a rock) may go."""
        taken = {
            level.start,
            level.goal,
            *level.items,
            *(src for src, _ in level.portals),
            *self.request.portal_cells,
        }
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
        items, ends = picked[: self.request.items], picked[self.request.items :]
        portals = [pair for a, b in zip(ends[::2], ends[1::2]) for pair in ((a, b), (b, a))]
        return level.replace(
            items=tuple(sorted(self.pinned | set(items))),
            portals=self.pinned_portals + tuple(portals),
        )

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
            return level.replace(
                portals=tuple(
                    (new if a == old else a, new if b == old else b) for a, b in level.portals
                )
            )
        if roll < 0.3 and movable and open_cells:  # an item moved
            old = movable[rng.integers(len(movable))]
            new = open_cells[rng.integers(len(open_cells))]
            return level.replace(items=tuple(sorted((set(level.items) - {old}) | {new})))
        if roll < 0.38:  # an end moved
            which = rng.integers(2)
            cells = self.start_cells if which == 0 else self.goal_cells
            cell = cells[rng.integers(len(cells))]
            if (
                cell in (level.start, level.goal)
                or cell in level.items
                or level.terrain[cell] == SNOW
                or any(cell in pair for pair in level.portals)
            ):
                return None
            terrain = level.terrain.copy()
            old = level.start if which == 0 else level.goal
            fixed = request.fixed_tile(old)
            terrain[old] = ICE if fixed is None else fixed  # a gap in the frame closes again
            terrain[cell] = ICE
            start, goal = (cell, level.goal) if which == 0 else (level.start, cell)
            return Level(
                terrain, start, goal, level.dialect, level.items, level.portals, level.floors
            )
        if roll < 0.45 and request.placed_snow():  # a snow tile moved to another open cell
            snow = [cell for cell in self.free if level.terrain[cell] == SNOW]
            if not snow or not open_cells:
                return None
            terrain = level.terrain.copy()
            terrain[snow[rng.integers(len(snow))]] = ICE
            terrain[open_cells[rng.integers(len(open_cells))]] = SNOW
            return Level(
                terrain,
                level.start,
                level.goal,
                level.dialect,
                level.items,
                level.portals,
                level.floors,
            )
        terrain = level.terrain.copy()
        toggled = self.free[rng.integers(len(self.free))]
        if (
            toggled in (level.start, level.goal)
            or toggled in level.items
            or terrain[toggled] == SNOW
            or any(toggled in pair for pair in level.portals)
        ):
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
        return Level(
            terrain,
            level.start,
            level.goal,
            level.dialect,
            level.items,
            level.portals,
            level.floors,
        )

    def run(
        self,
        plain: Level,
        budget: Budget,
        *,
        target: int | None,
        on_best: Callable[[int, Level], None] = lambda stops, level: None,
        rejected: Callable[[Level, str], bool] = lambda level, phase: False,
        stop: Callable[[], bool] = lambda: False,
        limit: Callable[[], int] = lambda: NO_LIMIT,
    ) -> tuple[Level | None, int]:
        """Anneal from ``plain`` until ``budget`` is spent, ``stop()``, or the chain's steps pass
        ``limit()``, or (``target`` given) a valid layout meeting ``target`` is found (``met_at``:
        the step it was found at). The heat falls with the steps, not the clock, so that a seed
        gives the same chain on any machine. The first ``CLIMB_STEPS`` steps are a climb (no worse
        layout is taken), the rest the annealing; ``rejected(level, phase)``: the verifier refused
        the level found in that phase (it is not kept as the best). Returns the best valid layout and its min stops ((None, -1): none);
        ``self.kept`` holds the best few, by the objective."""
        current, scored = None, None
        # a room meeting its floors counts them, not its shortest route
        self.meeting = target is not None
        for _ in range(PLACEMENTS):  # the best of many placements on the plain level
            if budget.expired():
                break
            placed = self.with_items(plain)
            score = self.evaluate(placed)
            if scored is None or self.score(score) > self.score(scored):
                current, scored = placed, score
        if current is None:
            self.kept = {}
            self.met_at = None
            return None, -1
        best, best_value, best_stops = None, -1, -1
        self.phase = (
            "climb"  # the first CLIMB_STEPS steps take no worse layout: a climb; then the annealing
        )
        self.kept = {}  # the best valid layouts (at most KEEP): (objective, stops, phase)

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
                    del self.kept[min(self.kept, key=self.kept.__getitem__)]
            if value > best_value and not rejected(level, self.phase):
                best, best_value, best_stops = level, value, score.stops
                on_best(best_stops, best)

        assert scored is not None  # scored with current
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
