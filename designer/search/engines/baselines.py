"""The generators users would otherwise use, as published, for comparison with the designer.

Each works in the layout space of a ``LayoutRequest``, draws every random choice from the seed,
and hands its candidates to the one verifier (``designer.analysis.verify``: the networkx
analysis, strong, reversible, min stops in the band, pins and budgets), as the designer does. What fails is
not returned; a method that finds nothing in its time raises ``DesignFailed``.

- ``random`` (sources 000 and 003): independent rocks with probability ``p`` inside the frame,
  start and goal on the bottom and top edges; kept when it verifies.
- ``repair`` (source 002): rocks up to 40% of the cells, a random start, snow (up to the N tiles
  the request asks for) at the furthest reachable cell until that stops helping, the goal at the furthest cell, then five scans of
  cleanup (a rock, or snow when no count is asked for, back to ice when that does not shorten the
  solution, kept anyway with
  40% chance) and clutter (ice to rock when that lengthens it); restart when it falls short.
  It does not look at traps or reversibility, as published; verification rejects what fails.
- ``greedy`` (the public maximisers): from a random layout, move one rock at a time to wherever
  lengthens the shortest solution most; restart when no move helps. Like them, it optimises the
  solution length only; verification decides.
"""

from __future__ import annotations

import numpy as np

from designer.analysis.classify import classify_batch
from designer.analysis.graph import analyze
from designer.analysis.tidy import tidy
from designer.analysis.verify import meets
from designer.core.budget import Budget
from designer.core.control import CancelToken
from designer.core.errors import DesignerError
from designer.core.kernels import reach
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.rules import terrain_slide_table
from designer.core.space import LayoutSpace
from designer.core.terrain import ICE, ROCK, SNOW
from designer.search.engines.climb import rock_moves
from designer.search.engines.sampling import batch_level, sample_for_request
from designer.search.result import Design, DesignFailed, GeneratorRecord, choice_figures
from designer.search.validation import validate

RANDOM_P = (
    0.2  # Odland: "around 20% often results in maps that are strongly solvable and reversible"
)
RANDOM_BATCH = 1024


class _Clock:
    def __init__(
        self,
        method: str,
        request: LayoutRequest,
        seed: int,
        time_limit: float,
        excluded: set[Level],
        cancel: CancelToken | None = None,
    ):
        self.method, self.request, self.seed, self.excluded = method, request, seed, excluded
        self.budget = Budget(time_limit, ended=cancel)
        self.candidates = 0
        self.rejected = 0

    def left(self) -> bool:
        return not self.budget.expired()

    def accept(self, request: LayoutRequest, level: Level) -> Design | None:
        """Verify a candidate; the Design if it passes."""
        if level in self.excluded:
            return None
        self.candidates += 1
        if request.tidy:  # the same tidying as the designer's, so that --tidy means one thing
            level = tidy(request, level, request.min_stops) or level
        report = analyze(level)
        if meets(request, level, report):
            return Design(
                level,
                report,
                GeneratorRecord(
                    method=self.method,
                    stage=self.method,
                    seed=self.seed,
                    seconds=round(self.budget.seconds(), 3),
                    time_limit=self.budget.time_limit,
                    request=self.request,
                    candidates=self.candidates,
                    rejected=self.rejected,
                    **(choice_figures(report) if request.asks_for_choices else {}),
                ),
            )
        self.rejected += 1
        return None

    def fail(self, request: LayoutRequest) -> DesignFailed:
        rejected = f" ({self.rejected} candidates failed verification)" if self.rejected else ""
        return DesignFailed(
            "time limit",
            f"time limit reached: {self.method} found no strong reversible level "
            f"with min stops >= {request.min_stops} in {self.budget.time_limit:g} s{rejected}",
        )


def generate(
    method: str,
    request: LayoutRequest,
    *,
    seed: int = 0,
    time_limit: float = 60.0,
    exclude: tuple[Level, ...] = (),
    cancel: CancelToken | None = None,
) -> Design:
    """Run one baseline ``method`` ("random", "repair" or "greedy") on a request; levels in
    ``exclude`` are never returned (for packs of distinct levels)."""
    validate(request)
    if method not in GENERATORS:
        raise ValueError(f"method must be one of {tuple(GENERATORS)}")
    # as published, they lay rocks on an open frame, not in a drawing
    if request.template is not None:
        raise DesignerError(
            f"the {method} generator lays rocks on an open frame: it takes no template"
        )
    clock = _Clock(method, request, seed, time_limit, set(exclude), cancel)
    rng = np.random.default_rng(seed)
    return GENERATORS[method](request, rng, clock)


# --- random -------------------------------------------------------------------------------------


def _random(request: LayoutRequest, rng: np.random.Generator, clock: _Clock) -> Design:
    while clock.left():
        terrains, starts, goals = sample_for_request(rng, request, RANDOM_BATCH, RANDOM_P)
        classes, reversible, stops = classify_batch(terrains, starts, goals)
        # solvable and long enough: worth verifying
        hits = (classes > 0) & (stops >= request.min_stops)
        for k in np.flatnonzero(hits):
            found = clock.accept(request, batch_level(terrains, starts, goals, int(k)))
            if found:
                return found
    raise clock.fail(request)


# --- shared helpers for the two search baselines ------------------------------------------------


def _min_stops(terrains: np.ndarray, start: int, goal: int) -> np.ndarray:
    """Min stops (-1 when unsolvable) of a batch of terrains with one start and goal."""
    count = terrains.shape[0]
    _, _, stops = classify_batch(terrains, np.full(count, start), np.full(count, goal))
    return stops


def _distances_from(terrain: np.ndarray, start: int) -> np.ndarray:
    """Min stops from ``start`` to every cell while no goal is placed yet (capture cell -1: none)."""
    dest, _ = terrain_slide_table(terrain, -1)
    stops, _ = reach(dest, start, -1)
    return stops


# --- repair (002) -------------------------------------------------------------------------------

REPAIR_ROCKS = 0.4  # "rocks are placed at random until at most 40% of all tiles are covered"
REPAIR_KEEP_USELESS = 0.4  # "useless tiles are left in with a 40% random chance"
REPAIR_SCANS = 5


def _repair(request: LayoutRequest, rng: np.random.Generator, clock: _Clock) -> Design:
    h, w = request.height, request.width
    space = LayoutSpace.of(request)
    free, start_cells, goal_cells = space.free, space.start_cells, space.goal_cells
    while clock.left():
        flat = np.full(h * w, ROCK, np.uint8)
        flat[free] = ICE
        drops = rng.choice(free, size=int(REPAIR_ROCKS * len(free)), replace=True)
        flat[drops] = ROCK
        start = int(rng.choice(start_cells))
        flat[start] = ICE
        # Snow at the furthest reachable cell, while that lengthens the path to the furthest cell.
        furthest, placed = -1, 0
        while placed < request.snow and clock.left():  # snow only when asked for, at most N tiles
            stops = _distances_from(flat.reshape(h, w), start)
            stops[start] = -1
            far = int(stops.max())
            if far <= furthest or far <= 0:
                break
            furthest = far
            cells = np.flatnonzero(stops == far)
            if not np.isin(cells, free).any():
                break
            flat[int(rng.choice(cells[np.isin(cells, free)]))] = SNOW
            placed += 1
        # The goal: the allowed cell furthest from the start (frame gaps opened to look).
        goal, best = -1, 0
        for cell in goal_cells:
            if cell == start:
                continue
            trial = flat.copy()
            trial[cell] = ICE
            s = int(_min_stops(trial.reshape(1, h, w), start, int(cell))[0])
            if s > best:
                goal, best = int(cell), s
        if goal < 0:
            continue
        flat[goal] = ICE
        # Five scans of cleanup and clutter.
        current = best
        for _ in range(REPAIR_SCANS):
            for cell in free:
                if cell in (start, goal) or not clock.left():
                    continue
                if flat[cell] == ROCK or (flat[cell] == SNOW and not request.snow):
                    trial = flat.copy()
                    trial[cell] = ICE
                    s = int(_min_stops(trial.reshape(1, h, w), start, goal)[0])
                    if s >= current and rng.random() >= REPAIR_KEEP_USELESS:
                        flat, current = trial, s
                else:
                    trial = flat.copy()
                    trial[cell] = ROCK
                    s = int(_min_stops(trial.reshape(1, h, w), start, goal)[0])
                    if s > current:
                        flat, current = trial, s
        if current >= request.min_stops:
            found = clock.accept(request, space.level(flat, start, goal))
            if found:
                return found
    raise clock.fail(request)


# --- greedy (hill-climbing maximisers) ----------------------------------------------------------


def _greedy(request: LayoutRequest, rng: np.random.Generator, clock: _Clock) -> Design:
    h, w = request.height, request.width
    space = LayoutSpace.of(request)
    while clock.left():
        terrains, starts, goals = sample_for_request(rng, request, 64, RANDOM_P)
        stops = _min_stops_each(terrains, starts, goals)
        k = int(np.argmax(stops))
        if stops[k] < 0:
            continue
        flat = terrains[k].reshape(-1).copy()
        start, goal, current = int(starts[k]), int(goals[k]), int(stops[k])
        free = space.free[(space.free != start) & (space.free != goal)]
        while clock.left():
            batch = rock_moves(flat, free)
            if not len(batch):
                break
            moved = _min_stops(batch.reshape(-1, h, w), start, goal)
            top = int(moved.max())
            if top <= current:
                break  # no move helps: restart
            choice = int(rng.choice(np.flatnonzero(moved == top)))
            flat, current = batch[choice], top
            if current >= request.min_stops:
                break
        if current >= request.min_stops:
            found = clock.accept(request, space.level(flat, start, goal))
            if found:
                return found
    raise clock.fail(request)


def _min_stops_each(terrains, starts, goals) -> np.ndarray:
    classes, _, stops = classify_batch(terrains, starts, goals)
    return np.where(classes > 0, stops, -1)


#: The classic generators, by method name (``designer.search.methods`` lists them with the
#: designer's policies).
GENERATORS = {"random": _random, "repair": _repair, "greedy": _greedy}
