"""The designer: pose a request, search, verify, and never hand back a level that fails.

A design runs as a portfolio, every random choice drawn from the seed:

0. **bounds** (``designer.bounds``): cheap theorems that prove some requests infeasible at
   once; and **endpoints**, when the request leaves no layout to choose (no rocks, no snow):
   every start and goal tried in one compiled pass, which is exact.
1. **sampling**: seeded random layouts, classified in compiled batches. For small targets
   (K up to about 20 on 12x12) the fastest way to a level; otherwise it seeds the climb.
2. **climb**: neighbourhood search from the best samples (``designer.climb``): every one-cell
   change classified in one batch, the best taken. It meets most targets within a second and
   gives CP-SAT a strong hint. In tiny layout spaces it goes on with exact neighbourhoods: a
   few rocks released and placed again in every possible way (``exhaustive.search_around``).
2b. **open grid** (a rock budget on a large grid with no frame: ``designer.opengrid``): in place
   of sampling and the climb, simulated annealing on compressed grids, where only the order of the rocks'
   rows and columns and the gaps between them count; the best is expanded back to the full grid.
2c. **anneal** (``designer.anneal``, compiled kernels, no snow to place): where no proof is in
   reach, simulated annealing from the climb's best layout, one random change at a time, one
   chain per worker. Maximizing, it gets most of the time after one short climb (in place of
   climbs from fresh samples); meeting a target the climb missed, half the time left.
3. **exhaustive** (tiny layout spaces: no frame or pinned ends, a rock budget, no snow): every
   layout up to symmetry, in compiled code; when it completes it proves its best optimal, or
   the request infeasible. Otherwise **cp-sat**: the model of ``models.ice_cpsat`` (strong
   solvability, reversibility and exact min stops are all inside it), solved with the rest of the
   time, the seed and the workers given. It maximizes the goal's stops from a hint (the best
   layout so far, or the empty room) and stops at the first level of K stops, so CP-SAT's own
   neighbourhood search climbs; an optimum below K proves the request infeasible. With
   ``maximize`` it looks for a level better than the best so far, so that "none exists" proves
   that one optimal.

Every candidate is re-checked by ``designer.analysis`` (networkx: strong, reversible, min stops
from our own solver). One that fails is excluded from the model by a no-good cut and the search
goes on; ``Design.generator`` records the method asked for (``auto``: this portfolio; ``cpsat``:
the CP-SAT model alone, with nothing in front of it), the ``stage`` that produced the level, and
how many candidates were rejected. The time limit covers all the work, model building included:
a stage that cannot run in the time left is skipped, and the result says so.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from designer.search import anneal, exhaustive, opengrid
from designer.analysis import bounds
from designer.analysis.graph import Analysis, analyze
from designer.core.errors import DesignerError
from designer.search.climb import Space, climb
from designer.analysis.classify import STRONG, classify, classify_batch
from designer.core.level import ICE, ROCK, SNOW, Level
from designer.search.sampling import batch_level, sample_for_request
from designer.analysis.tidy import is_tidy, tidy
from designer.core.request import LayoutRequest

#: What ``design`` can be asked to run: the portfolio, or the CP-SAT model alone.
METHODS = ("auto", "cpsat")
#: Largest grid the designer accepts (the model grows with cells x slide length).
MAX_DESIGN_SIDE = 40
SAMPLE_BATCH = 4096
DENSITIES = (0.2, 0.25, 0.15, 0.3)
SAMPLE_BATCHES = 1  # batches drawn before climbing (more while none is strong and reversible)
POOL_SIZE = 8  # sampled layouts the climb starts from
CLIMB_SHARE = 0.5  # of the time left: the climb's budget; CP-SAT or the exhaustive search gets the rest
SEARCH_SHARE_WITHOUT_PROOF = 0.9  # maximize, when no complete proof is in reach: climb (with restarts) longer
CLIMB_SHARE_BEFORE_PROOF = 0.1  # when a complete exhaustive search is in reach, it gets most of the time
CLIMB_SHARE_BEFORE_ANNEAL = 0.05  # maximize: the climb only hands the annealing a good start
ANNEAL_SHARE_BEFORE_MODEL = 0.5  # meeting a target the climb missed: annealing, then the model
EMPTY_ROOM_PAIRS = 4096  # start and goal pairs tried for the model's starting point
EXHAUSTIVE_REACH = 10  # search exhaustively when a complete search is forecast within 10x the time left
STALL_SHARE, STALL_MIN_SECONDS, STALL_MAX_SECONDS = 0.1, 2.0, 30.0  # the climb hands over after this
# long without a gain: a tenth of the time limit, within these bounds
NEIGHBOURHOOD_STALL_SHARE = 0.3  # exact neighbourhoods get longer: each round is slower
NEIGHBOURHOOD_RELEASE = (3, 4)  # rocks released per exact neighbourhood


@dataclass(frozen=True)
class Design:
    level: Level
    analysis: Analysis
    generator: dict  # the JSON level's "generator" record

    @property
    def min_stops(self) -> int:
        return self.analysis.min_stops


class DesignFailed(Exception):
    """The request cannot be met: ``reason`` is "infeasible" or "time limit"."""

    def __init__(self, reason: str, message: str, best: Design | None = None):
        super().__init__(message)
        self.reason = reason
        self.best = best


@dataclass
class Progress:
    """What a caller may watch while a design runs."""

    phase: str = "starting"
    best_stops: int | None = None
    rejected: int = 0
    listeners: list[Callable[[Progress], None]] = field(default_factory=list)

    def update(self, **changes) -> None:
        for key, value in changes.items():
            setattr(self, key, value)
        for listener in self.listeners:
            listener(self)


def validate(request: LayoutRequest) -> None:
    """Refuse requests that make no sense (DesignerError, exit status 2 on the command line)."""
    h, w = request.height, request.width
    if h < 1 or w < 1 or h * w < 2:
        raise DesignerError(f"size {h}x{w} has no room for a start and a goal")
    if request.frame and (h < 3 or w < 3):
        raise DesignerError(f"size {h}x{w} is too small for a frame: at least 3x3 (or use --no-frame)")
    if h > MAX_DESIGN_SIDE or w > MAX_DESIGN_SIDE:
        raise DesignerError(f"size {h}x{w} is too large to design: at most {MAX_DESIGN_SIDE} per side")
    if request.min_stops < 1:
        raise DesignerError("--min-stops must be at least 1")
    if request.max_stops is not None and request.max_stops < request.min_stops:
        raise DesignerError(f"--max-stops {request.max_stops} is below --min-stops {request.min_stops}")
    if request.max_rocks is not None and request.max_rocks < 0:
        raise DesignerError("--max-rocks must not be negative")
    if request.snow < 0:
        raise DesignerError("--snow must not be negative")
    if request.placed_snow() < 0:
        raise DesignerError(f"the template draws {request.fixed_snow()} snow tiles, more than --snow {request.snow}")
    if request.placed_snow() > len(request.free_cells()) - 2:
        raise DesignerError(f"--snow {request.snow} does not fit: {h}x{w} has {len(request.free_cells())} free "
                            "cells, and the start and goal need two of them or their own")
    for name, cell in (("start", request.start), ("goal", request.goal)):
        if cell is None:
            continue
        r, c = cell
        if not (0 <= r < h and 0 <= c < w):
            raise DesignerError(f"--{name} {r},{c} lies outside the {h}x{w} grid")
        if request.frame and request.is_corner(cell):
            raise DesignerError(f"--{name} {r},{c} is a corner of the frame: nothing can move there or from there")
    if request.template is not None:
        for name, cell in (("start", request.start), ("goal", request.goal)):
            if cell is not None and request.fixed_tile(cell) not in (None, ICE):
                raise DesignerError(f"--{name} {cell[0]},{cell[1]} is a drawn rock or snow tile of the template")
    if request.start is not None and request.start == request.goal:
        raise DesignerError(f"--start and --goal are the same cell {request.start[0]},{request.start[1]}")
    if len(set(request.start_cells()) | set(request.goal_cells())) < 2:
        raise DesignerError("no two cells (free or ice) are left for the start and the goal")


def _meets(request: LayoutRequest, report: Analysis, level: Level, floor: int | None = None) -> bool:
    """The verification every design passes before it is returned. ``floor`` is the stops a
    tidy level must keep (the request's K; a maximized level's own stops)."""
    if level.shape != (request.height, request.width):
        return False
    if report.solvability != "strong" or not report.reversible or report.min_stops is None:
        return False
    if report.min_stops < request.min_stops:
        return False
    if request.max_stops is not None and report.min_stops > request.max_stops:
        return False
    free = request.free_cells()
    if request.max_rocks is not None and sum(level.terrain[c] == ROCK for c in free) > request.max_rocks:
        return False
    if sum(level.terrain[c] == SNOW for c in free) != request.placed_snow():
        return False
    if level.start not in request.start_cells() or level.goal not in request.goal_cells():
        return False
    fixed = np.array(request.fixed_grid(), np.int16)
    kept = fixed < 0
    kept[level.start] = kept[level.goal] = True  # an end opens its cell
    if not np.array_equal(level.terrain[~kept], fixed[~kept]):
        return False  # the frame or a template tile was changed
    if request.tidy and not is_tidy(request, level, request.min_stops if floor is None else floor):
        return False
    return True


def design(
    request: LayoutRequest,
    *,
    seed: int = 0,
    time_limit: float = 60.0,
    workers: int | None = None,
    maximize: bool = False,
    exclude: tuple[Level, ...] = (),
    progress: Progress | None = None,
    method: str = "auto",
    executor=None,
) -> Design:
    """A verified strong, reversible level meeting ``request``, or DesignFailed saying why.

    ``method`` is ``auto`` (the portfolio) or ``cpsat`` (the CP-SAT model alone). ``exclude``
    lists levels that must not be returned again (for packs of distinct levels). With
    ``maximize``, the level with the most min stops found within the time limit, and in its
    generator record whether that is proven optimal. ``executor`` runs the exhaustive search's
    shards (``designer.executor``; threads in this process by default).
    """
    validate(request)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, not {method!r}")
    reason = bounds.infeasible(request)
    if reason:
        raise DesignFailed("infeasible", f"{_infeasible_message(request)}: {reason}")
    search = Search(request, seed=seed, budget=Budget(time_limit), workers=workers or os.cpu_count() or 1,
                    method=method, excluded=set(exclude), progress=progress or Progress(), maximize=maximize,
                    executor=executor)
    if method == "cpsat":
        return _model_only(search, maximize)
    return _maximize(search) if maximize else _meet(search)


def lower_bound(request: LayoutRequest, *, seed: int = 0, time_limit: float = 10.0, workers: int | None = None,
                progress: Progress | None = None) -> Design | None:
    """The best verified level that sampling and the climb (with restarts) find within the time
    limit, with no proof: the first stage of ``designer.records``, which proves on its own."""
    validate(request)
    search = Search(request, seed=seed, budget=Budget(time_limit), workers=workers or os.cpu_count() or 1,
                    method="auto", excluded=set(), progress=progress or Progress(), maximize=True)
    sample_stage(search, take=False)
    if search.pool:
        climb_stage(search, None, 1.0, restarts=True)
    return search.best


@dataclass(frozen=True)
class PackJob:
    """One level of a pack, as a picklable job for an executor (``designer.executor``)."""

    request: LayoutRequest
    seed: int
    time_limit: float
    workers: int | None
    maximize: bool
    method: str


def run_pack_job(job: PackJob) -> Design | DesignFailed:
    """Design one level of a pack; a request that cannot be met comes back as its DesignFailed
    (so that it crosses a cluster as a value)."""
    try:
        return design(job.request, seed=job.seed, time_limit=job.time_limit, workers=job.workers,
                      maximize=job.maximize, method=job.method)
    except DesignFailed as failed:
        return failed


# --- what the stages share ---------------------------------------------------------------------

@dataclass
class Budget:
    """One clock for a whole design: every stage asks it how much time is left."""

    time_limit: float
    t0: float = field(default_factory=time.perf_counter)

    @property
    def deadline(self) -> float:  # a time.perf_counter() value
        return self.t0 + self.time_limit

    def left(self) -> float:
        return max(0.0, self.deadline - time.perf_counter())

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0

    def monotonic_deadline(self) -> float:
        """The deadline as a time.monotonic() value, for the exhaustive search."""
        return time.monotonic() + self.left()


class Search:
    """The state the stages share: the request, one budget, one verifier, the seed's random
    stream, and what has been found so far (the sampled pool, the best verified design)."""

    def __init__(self, request: LayoutRequest, *, seed: int, budget: Budget, workers: int, method: str,
                 excluded: set[Level], progress: Progress, maximize: bool = False, executor=None):
        self.request, self.seed, self.budget, self.workers = request, seed, budget, workers
        self.executor = executor  # where the exhaustive search's shards run (None: threads here)
        self.maximize = maximize
        self.method, self.excluded, self.progress = method, excluded, progress
        self.rng = np.random.default_rng(seed)
        self.rejected = 0
        self.samples = 0
        self.pool: list[tuple[int, Level]] = []  # the best layouts so far (stops, level), best first
        self.best: Design | None = None  # the best verified design (when maximizing)
        self.best_stops_seen = -1
        self.skipped: list[str] = []  # stages that could not run in the time left, and why

    def record(self, stage: str, **extra) -> dict:
        skipped = {"skipped": list(self.skipped)} if self.skipped else {}
        return {
            "method": self.method, "stage": stage, "seed": self.seed,
            "seconds": round(self.budget.elapsed(), 3), "time_limit": self.budget.time_limit,
            "workers": self.workers, "samples": self.samples, "rejected": self.rejected, **skipped, **extra,
        }

    def verify(self, level: Level, stage: str) -> Design | None:
        """The one verifier: the design if ``level`` passes every check, else None (and one more
        rejection). With ``--tidy``, spare rocks are turned into ice first (``designer.tidy``)."""
        if level in self.excluded:
            return None
        extra, floor = {}, None
        if self.request.tidy:
            # maximizing, a tile is spare when removing it keeps the level's own stops
            floor = (classify(level).min_stops or 0) if self.maximize else self.request.min_stops
            tidied = tidy(self.request, level, floor)
            if tidied is not None and tidied != level:
                extra = {"tidied": int((level.terrain != tidied.terrain).sum())}
            level = tidied if tidied is not None else level
            if level in self.excluded:
                return None
        report = analyze(level)
        if _meets(self.request, report, level, floor):
            return Design(level, report, self.record(stage, **extra))
        self.rejected += 1
        self.progress.update(rejected=self.rejected)
        return None

    def seen(self, stops: int) -> None:
        if stops > self.best_stops_seen:
            self.best_stops_seen = stops
            self.progress.update(best_stops=stops)

    def timed_out(self) -> DesignFailed:
        seen = f" (the best layout seen needs {self.best_stops_seen} stops)" if self.best_stops_seen > 0 else ""
        skipped = "".join(f"; {why}" for why in self.skipped)
        return DesignFailed(
            "time limit",
            f"time limit reached: no strong reversible level with min stops >= {self.request.min_stops} "
            f"found in {self.budget.time_limit:g} s{seen}{skipped}",
        )

    def infeasible(self, detail: str = "") -> DesignFailed:
        return DesignFailed("infeasible", _infeasible_message(self.request) + detail)

    def finish_maximize(self, *, proven: bool, **extra) -> Design:
        best = self.best
        generator = dict(best.generator, proven_optimal=proven, rejected=self.rejected, samples=self.samples,
                         maximize=True, seconds=round(self.budget.elapsed(), 3), **extra)
        if self.skipped:
            generator["skipped"] = list(self.skipped)
        return Design(best.level, best.analysis, generator)


@dataclass(frozen=True)
class StageResult:
    """What a searching stage returns: a verified design (or None), and whether it searched
    everything above its bar (so that no level it missed exists: a proof)."""

    design: Design | None
    complete: bool
    layouts: int = 0  # exhaustive search: layouts evaluated


# --- the stages --------------------------------------------------------------------------------

def endpoints_stage(search: Search, terrain: np.ndarray, best_only: bool) -> StageResult:
    """One layout only (no rocks, no snow): every start and goal, in batches. With ``best_only``
    every pair is tried and the best verified level returned; otherwise the first batch's."""
    search.progress.update(phase="every start and goal")
    found, complete = exhaustive.search_endpoints(search.request, terrain, search.budget.monotonic_deadline(),
                                                  search.excluded, first_only=not best_only)
    for stops, level in found:
        search.seen(stops)
        design = search.verify(level, "endpoints")
        if design is not None:
            return StageResult(design, complete)
    return StageResult(None, complete)


def sample_stage(search: Search, take: bool) -> Design | None:
    """Seeded random layouts in compiled batches; keeps the best few in the pool for the climb.
    With ``take``, the first verified level that meets the request is returned."""
    search.progress.update(phase="sampling")
    request, budget = search.request, search.budget
    space = Space.of(request)
    batch = 0
    # A fixed number of batches (not a time slice), so that the same seed gives the same pool.
    while batch < SAMPLE_BATCHES or (not search.pool and time.perf_counter() < budget.t0 + 0.5 * budget.time_limit):
        density = DENSITIES[batch % len(DENSITIES)]
        batch += 1
        terrains, starts, goals = sample_for_request(search.rng, request, SAMPLE_BATCH, density)
        search.samples += SAMPLE_BATCH
        classes, reversible, stops = classify_batch(terrains, starts, goals)
        good = (classes == STRONG) & reversible
        if request.max_rocks is not None:
            good &= space.rocks(terrains) <= request.max_rocks
        if request.max_stops is not None:
            good &= stops <= request.max_stops
        candidates = np.flatnonzero(good)
        candidates = candidates[np.argsort(-stops[candidates], kind="stable")]
        if take:
            for k in candidates[stops[candidates] >= request.min_stops]:
                found = search.verify(batch_level(terrains, starts, goals, int(k)), "sampling")
                if found:
                    return found
        for k in candidates[:POOL_SIZE]:
            search.pool.append((int(stops[k]), batch_level(terrains, starts, goals, int(k))))
        search.pool = sorted(search.pool, key=lambda item: -item[0])[:POOL_SIZE]
        if search.pool:
            search.seen(search.pool[0][0])
    return None


def climb_stage(search: Search, target: int | None, share: float, restarts: bool) -> Design | None:
    """Climb from the pool (then, in tiny spaces, search exact neighbourhoods around the best
    layout) for ``share`` of the time left. With a ``target``, return the first verified level
    that meets it (None when short: the best layout goes to the pool, the next stage's hint).
    With no target (maximizing), keep the best verified design in ``search.best``; with
    ``restarts``, climb again from fresh samples each time a climb ends."""
    if not search.pool:
        return None
    search.progress.update(phase="climbing")
    request = search.request
    end = time.perf_counter() + share * search.budget.left()
    stall = min(STALL_MAX_SECONDS, max(STALL_MIN_SECONDS, STALL_SHARE * search.budget.time_limit))
    while time.perf_counter() < end:
        level, stops = climb(request, search.rng, [lv for _, lv in search.pool], end, target,
                             search.excluded, on_best=search.seen, stall=stall)
        if level is None:
            return None
        stage = "climb"
        if exhaustive.applicable(request) and (target is None or stops < target):
            refined, refined_stops = _refine(search, level, stops, end, target)
            stage = "neighbourhood" if refined_stops > stops else stage
            level, stops = refined, refined_stops
        if target is not None and stops < target:
            search.pool.insert(0, (stops, level))  # short of the target: the next stage's hint
            return None
        found = search.verify(level, stage)
        if found is None:
            search.excluded.add(level)  # rejected: never offer it again
            continue
        search.pool.insert(0, (stops, level))
        if target is not None:
            return found
        if search.best is None or found.min_stops > search.best.min_stops:
            search.best = found
        if not restarts:
            return None
        if time.perf_counter() >= end:  # no time left to climb again: no fresh samples either
            break
        search.pool = []  # climb again from fresh samples; the best is kept
        sample_stage(search, take=False)
        search.progress.update(phase="climbing")
    return None


def open_grid_stage(search: Search, target: int | None, share: float) -> Design | None:
    """A few rocks on a large open grid (``designer.opengrid``): annealing on compressed grids, one
    chain per worker, for ``share`` of the time left. With a ``target``, the first verified level
    that meets it; otherwise the best verified level goes to ``search.best``."""
    search.progress.update(phase="open-grid annealing")
    end = time.perf_counter() + share * search.budget.left()
    level, stops = opengrid.search(search.request, search.rng, end, search.workers, target=target,
                                   exclude=search.excluded, on_best=search.seen)
    if level is None or (target is not None and stops < target):
        return None
    return _keep(search, level, "open grid", target)


def _keep(search: Search, level: Level, stage: str, target: int | None) -> Design | None:
    """A searching stage's level through the verifier: a rejected one is never offered again; a
    verified one becomes the best when it beats it, and is returned when meeting a ``target``."""
    found = search.verify(level, stage)
    if found is None:
        search.excluded.add(level)
        return None
    if search.best is None or found.min_stops > search.best.min_stops:
        search.best = found
    return found if target is not None else None


def anneal_stage(search: Search, target: int | None, share: float) -> Design | None:
    """Simulated annealing from the best layout so far (``designer.anneal``), one chain per
    worker, for ``share`` of the time left. With a ``target``, the first verified level that
    meets it; otherwise a better verified level goes to ``search.best``."""
    if search.best is not None:
        level, stops = search.best.level, search.best.min_stops
    elif search.pool:
        stops, level = search.pool[0]
    else:
        return None
    search.progress.update(phase="annealing")
    end = time.perf_counter() + share * search.budget.left()
    found_level, found_stops = anneal.search(search.request, level, stops, search.rng, end, search.workers,
                                             target=target, on_best=search.seen)
    if found_level == level or (target is not None and found_stops < target):
        if target is not None and found_stops > stops:
            search.pool.insert(0, (found_stops, found_level))  # the model's hint
        return None
    return _keep(search, found_level, "anneal", target)


def _refine(search: Search, level: Level, stops: int, end: float, target: int | None) -> tuple[Level, int]:
    """Exact neighbourhoods: release a few rocks of the best layout and place them again in every
    possible way, with every start and goal; move on ties, stop after a long stall."""
    search.progress.update(phase="neighbourhood search")
    last_gain = time.perf_counter()
    stall = min(2 * STALL_MAX_SECONDS,
                max(STALL_MIN_SECONDS, NEIGHBOURHOOD_STALL_SHARE * search.budget.time_limit))
    while time.perf_counter() < min(end, last_gain + stall) and (target is None or stops < target):
        release = int(search.rng.choice(NEIGHBOURHOOD_RELEASE))
        deadline = time.monotonic() + max(0.0, min(end, last_gain + stall) - time.perf_counter())
        result = exhaustive.search_around(search.request, level, release, stops, deadline, search.rng)
        if result.level is None or result.level in search.excluded:
            continue
        if result.best > stops:
            last_gain = time.perf_counter()
            search.seen(result.best)
        level, stops = result.level, result.best
    return level, stops


def proof_within_reach(search: Search, left: float) -> bool:
    """Whether an exhaustive search could complete in the time the climb would leave it."""
    return exhaustive.applicable(search.request) and (
        exhaustive.estimated_seconds(search.request, search.workers) <= (1 - CLIMB_SHARE_BEFORE_PROOF) * left)


def exhaustive_fits(search: Search) -> bool:
    """Whether a complete search of the space can be expected within ten times the time left."""
    if not exhaustive.applicable(search.request):
        return False
    return exhaustive.estimated_seconds(search.request, search.workers) <= EXHAUSTIVE_REACH * search.budget.left()


def exhaustive_stage(search: Search, bar: int, first_only: bool) -> StageResult:
    """Every layout up to symmetry (tiny spaces), for a level of at least ``bar`` stops: the best
    one, or with ``first_only`` the first found. Complete: none better (or none at all) exists."""
    search.progress.update(phase="exhaustive search")
    result = exhaustive.search(search.request, bar, search.budget.monotonic_deadline(), search.workers,
                               executor=search.executor,
                               on_best=search.seen, first_only=first_only)
    design = None
    if result.level is not None:
        design = search.verify(result.level, "exhaustive")
        if design is None:  # cannot happen unless the kernels disagree with the analysis
            raise RuntimeError(f"exhaustive search returned a level that fails verification:\n{result.level}")
    return StageResult(design, result.complete, result.layouts)


def empty_room(request: LayoutRequest) -> Level | None:
    """The model's starting point when nothing better is known: every free cell ice and the first
    start and goal (pairs in one row or column first) that make the room strong and reversible.
    A hint, not a stage: the model's own search improves on it. None when no pair works."""
    terrain = exhaustive.base_terrain(request)  # fixed tiles, ice on the free cells and pinned ends
    pairs = [(s, g) for s in request.start_cells() for g in request.goal_cells() if s != g]
    pairs.sort(key=lambda pair: pair[0][0] != pair[1][0] and pair[0][1] != pair[1][1])
    pairs = pairs[:EMPTY_ROOM_PAIRS]
    if not pairs:
        return None
    terrains = np.repeat(terrain[None], len(pairs), axis=0)
    for k, (start, goal) in enumerate(pairs):
        terrains[(k, *start)] = terrains[(k, *goal)] = ICE  # an end in the frame is a gap in it
    width = request.width
    starts = np.array([r * width + c for (r, c), _ in pairs], dtype=np.int32)
    goals = np.array([r * width + c for _, (r, c) in pairs], dtype=np.int32)
    classes, reversible, _ = classify_batch(terrains, starts, goals)
    good = np.flatnonzero((classes == STRONG) & reversible)
    if not len(good):
        return None
    k = int(good[0])
    return Level(terrains[k], pairs[k][0], pairs[k][1])


def model_stage(search: Search, maximize: bool) -> StageResult:
    """The CP-SAT model (``models.ice_cpsat``), solved with the time left. It maximizes the goal's
    stops from a hint: the best layout so far, else the empty room (``empty_room``). Without
    ``maximize`` the search ends at the first level of at least K stops (verified; K is not a
    constraint, so the hint is a solution and CP-SAT's own neighbourhood search climbs from it),
    and an optimum below K proves the request infeasible. With ``maximize``, K and "better than the
    best so far" are constraints, and ever better levels go into ``search.best`` until the time
    runs out or the model proves no better one exists. Complete: the model proved its answer.
    Skipped, and said so, when building the model does not fit in the time left."""
    search.progress.update(phase="cp-sat")
    left = search.budget.left()  # loading OR-Tools (about 0.5 s the first time) counts too
    from ortools.sat.python import cp_model

    from designer.models.cpsat import BuildTimedOut, build_model
    from designer.models.solve import StopsWatcher, new_solver, solve

    request = search.request
    try:
        built = build_model(request, budget=search.budget.left(), require_min_stops=maximize)
    except BuildTimedOut:
        search.skipped.append(f"cp-sat: loading OR-Tools and building the model did not fit in the {left:.1f} s left")
        return StageResult(search.best if maximize else None, False)
    for level in search.excluded:
        built.exclude(level.terrain, level.start, level.goal)
    hint = search.best.level if search.best else (search.pool[0][1] if search.pool else empty_room(request))
    if hint is not None:
        built.hint(hint.terrain, hint.start, hint.goal)
    built.model.maximize(built.goal_stops)
    if maximize and search.best is not None:  # only a better level is worth finding now
        built.model.add(built.goal_stops >= search.best.min_stops + 1)

    while True:
        remaining = search.budget.left()
        if remaining <= 0.05:
            break
        solver = new_solver(search.seed, remaining, search.workers)
        watcher = StopsWatcher(built.goal_stops, search.seen, stop_at=None if maximize else request.min_stops)
        status = solve(solver, built.model, watcher)
        if status == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT model invalid: {built.model.validate()}")
        if status == cp_model.INFEASIBLE:
            return StageResult(search.best if maximize else None, True)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break  # time limit
        if not maximize and solver.value(built.goal_stops) < request.min_stops:
            # the most stops any level has is below K (OPTIMAL), or the time ran out short of it
            return StageResult(None, status == cp_model.OPTIMAL)
        terrain, start, goal = built.layout(solver)
        found = search.verify(Level(terrain, start, goal), "cp-sat")
        if found is None:
            built.exclude(terrain, start, goal)
            continue
        if not maximize:
            return StageResult(found, False)
        search.best = found
        if status == cp_model.OPTIMAL:
            return StageResult(found, True)
        built.model.add(built.goal_stops >= found.min_stops + 1)
    return StageResult(search.best if maximize else None, False)


# --- the policies: which stages run, in what order, with what share of the time --------------

ONE_LAYOUT = " (every start and goal tried on the only layout the request allows)"


def _exhaustive_detail(layouts: int) -> str:
    return f" (exhaustive search of {layouts:,} layouts up to symmetry)"


def _one_layout(search: Search, terrain: np.ndarray, maximize: bool) -> Design:
    """A request that leaves only the start and goal to choose: the endpoints stage decides it."""
    result = endpoints_stage(search, terrain, best_only=maximize)
    if result.design is None:
        raise search.infeasible(ONE_LAYOUT) if result.complete else search.timed_out()
    if not maximize:
        return result.design
    search.best = result.design
    return search.finish_maximize(proven=result.complete)


def _meet(search: Search) -> Design:
    """``auto``: a level of at least K stops, by the cheapest stage that finds one."""
    request = search.request
    terrain = exhaustive.fixed_terrain(request)
    if terrain is not None:
        return _one_layout(search, terrain, maximize=False)
    if opengrid.applies(request):  # random layouts of a few rocks on a big grid are rarely strong
        found = open_grid_stage(search, request.min_stops, SEARCH_SHARE_WITHOUT_PROOF)
    else:
        found = sample_stage(search, take=True)
    if found is None and search.pool:
        provable = proof_within_reach(search, search.budget.left())
        share = CLIMB_SHARE_BEFORE_PROOF if provable else CLIMB_SHARE
        found = climb_stage(search, request.min_stops, share, restarts=False)
        if found is None and not provable and anneal.applies(request):
            found = anneal_stage(search, request.min_stops, ANNEAL_SHARE_BEFORE_MODEL)
    if found is not None:
        return found
    if exhaustive_fits(search):
        result = exhaustive_stage(search, request.min_stops, first_only=True)
        detail = _exhaustive_detail(result.layouts)
    else:
        result = model_stage(search, maximize=False)
        detail = ""
    if result.design:
        return result.design
    raise search.infeasible(detail) if result.complete else search.timed_out()


def _maximize(search: Search) -> Design:
    """``auto --maximize``: the most stops the time allows, proven optimal where a stage can."""
    request = search.request
    terrain = exhaustive.fixed_terrain(request)
    if terrain is not None:
        return _one_layout(search, terrain, maximize=True)
    if opengrid.applies(request):
        open_grid_stage(search, None, SEARCH_SHARE_WITHOUT_PROOF)
        return _finish_with_model(search)
    sample_stage(search, take=False)
    if search.pool:
        provable = proof_within_reach(search, search.budget.left())
        if provable:
            climb_stage(search, None, CLIMB_SHARE_BEFORE_PROOF, restarts=False)
        elif anneal.applies(request):
            # one short climb gives the chains a strong, reversible start; they get the rest
            climb_stage(search, None, CLIMB_SHARE_BEFORE_ANNEAL, restarts=False)
            anneal_stage(search, None, SEARCH_SHARE_WITHOUT_PROOF)
        else:  # with no proof in reach, the time is better spent on fresh climbs
            climb_stage(search, None, SEARCH_SHARE_WITHOUT_PROOF, restarts=True)
    if not exhaustive_fits(search):
        return _finish_with_model(search)
    bar = search.best.min_stops + 1 if search.best else request.min_stops
    while True:
        result = exhaustive_stage(search, bar, first_only=False)
        if result.design is None:
            break
        search.best = result.design
        if result.complete:
            return search.finish_maximize(proven=True, searched=result.layouts)
        bar = result.design.min_stops + 1
    if search.best is not None:
        return search.finish_maximize(proven=result.complete, **({"searched": result.layouts}
                                                                 if result.complete else {}))
    raise search.infeasible(_exhaustive_detail(result.layouts)) if result.complete else search.timed_out()


def _finish_with_model(search: Search) -> Design:
    """Maximize with the model: a better level than the best so far, or the proof there is none."""
    result = model_stage(search, maximize=True)
    if search.best is None:
        raise search.infeasible() if result.complete else search.timed_out()
    return search.finish_maximize(proven=result.complete)


def _model_only(search: Search, maximize: bool) -> Design:
    """``cpsat``: the model alone, with no sampling or climb in front of it."""
    if maximize:
        return _finish_with_model(search)
    result = model_stage(search, maximize=False)
    if result.design:
        return result.design
    raise search.infeasible() if result.complete else search.timed_out()


def _infeasible_message(request: LayoutRequest) -> str:
    band = f"min stops >= {request.min_stops}"
    if request.max_stops is not None:
        band = f"min stops in {request.min_stops}..{request.max_stops}"
    return (f"proven infeasible: no strong reversible {request.height}x{request.width} level "
            f"with {band} exists under these constraints")
