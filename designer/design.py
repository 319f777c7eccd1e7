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
3. **exhaustive** (tiny layout spaces: no frame or pinned ends, a rock budget, no snow): every
   layout up to symmetry, in compiled code; when it completes it proves its best optimal, or
   the request infeasible. Otherwise **cp-sat**: the model of ``models.ice_cpsat`` (strong solvability, reversibility and the
   min-stops bound are all inside it), solved with the rest of the time, the seed and the
   workers given, hinted with the best layout so far. It finds what the climb cannot, and it
   proves: a request with no solution is reported infeasible, and with ``maximize`` it looks
   for a level better than the best so far, so that "none exists" proves that one optimal.

Every candidate is re-checked by ``designer.analysis`` (networkx: strong, reversible, min stops
from our own solver). One that fails is excluded from the model by a no-good cut and the search
goes on; ``Design.generator`` records the path taken and how many candidates were rejected.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from designer import bounds, exhaustive
from designer.analysis import Analysis, analyze
from designer.errors import DesignerError
from designer.climb import Space, climb
from designer.fast import STRONG, classify_batch
from designer.level import ROCK, Level
from designer.sampling import batch_level, sample_for_request
from models.request import LayoutRequest

#: Largest grid the designer accepts (the model grows with cells x slide length).
MAX_DESIGN_SIDE = 40
SAMPLE_BATCH = 4096
DENSITIES = (0.2, 0.25, 0.15, 0.3)
SAMPLE_BATCHES = 1  # batches drawn before climbing (more while none is strong and reversible)
POOL_SIZE = 8  # sampled layouts the climb starts from
CLIMB_SHARE = 0.5  # of the time left: the climb's budget; CP-SAT or the exhaustive search gets the rest
SEARCH_SHARE_WITHOUT_PROOF = 0.9  # maximize, when no complete proof is in reach: climb (with restarts) longer
CLIMB_SHARE_BEFORE_PROOF = 0.1  # when a complete exhaustive search is in reach, it gets most of the time
EXHAUSTIVE_REACH = 10  # search exhaustively when a complete search is forecast within 10x the time left
STALL_SHARE, STALL_MIN_SECONDS, STALL_MAX_SECONDS = 0.1, 2.0, 30.0  # the climb hands over after this
# long without a gain: a tenth of the time limit, within these bounds
NEIGHBOURHOOD_STALL_SHARE = 0.3  # exact neighbourhoods get longer: each round is slower
NEIGHBOURHOOD_RELEASE = (3, 4)  # rocks released per exact neighbourhood
INTERRUPT_MARGIN = 0.25  # seconds: a CP-SAT search that gives up this early was interrupted


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
    for name, cell in (("start", request.start), ("goal", request.goal)):
        if cell is None:
            continue
        r, c = cell
        if not (0 <= r < h and 0 <= c < w):
            raise DesignerError(f"--{name} {r},{c} lies outside the {h}x{w} grid")
        if request.frame and request.is_corner(cell):
            raise DesignerError(f"--{name} {r},{c} is a corner of the frame: nothing can move there or from there")
    if request.start is not None and request.start == request.goal:
        raise DesignerError(f"--start and --goal are the same cell {request.start[0]},{request.start[1]}")


def _meets(request: LayoutRequest, report: Analysis, level: Level) -> bool:
    """The verification every design passes before it is returned."""
    if report.solvability != "strong" or not report.reversible or report.min_stops is None:
        return False
    if report.min_stops < request.min_stops:
        return False
    if request.max_stops is not None and report.min_stops > request.max_stops:
        return False
    if request.max_rocks is not None:
        interior = [level.terrain[c] == ROCK for c in request.free_cells()]
        if sum(interior) > request.max_rocks:
            return False
    if request.start is not None and level.start != request.start:
        return False
    if request.goal is not None and level.goal != request.goal:
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
) -> Design:
    """A verified strong, reversible level meeting ``request``, or DesignFailed saying why.

    ``exclude`` lists levels that must not be returned again (for packs of distinct levels).
    With ``maximize``, the level with the most min stops found within the time limit, and in
    its generator record whether that is proven optimal.
    """
    validate(request)
    reason = bounds.infeasible(request)
    if reason:
        raise DesignFailed("infeasible", f"{_infeasible_message(request)}: {reason}")
    run = _Run(request, seed, time_limit, workers or os.cpu_count() or 1, maximize, set(exclude),
               progress or Progress())
    terrain = exhaustive.fixed_terrain(request)
    if terrain is not None:
        return run.search_endpoints(terrain)
    found = run.sample()
    if found is None:
        found = run.climb()
    if found is None or maximize:
        found = run.search_exhaustively() if run.exhaustive_fits() else run.solve_cpsat()
    return found


class _Run:
    """The state of one design: the clock, the random stream, the best layouts seen."""

    def __init__(self, request, seed, time_limit, workers, maximize, excluded, progress):
        self.request, self.seed, self.time_limit, self.workers = request, seed, time_limit, workers
        self.maximize, self.excluded, self.progress = maximize, excluded, progress
        self.t0 = time.perf_counter()
        self.deadline = self.t0 + time_limit
        self.rng = np.random.default_rng(seed)
        self.rejected = 0
        self.samples = 0
        self.pool: list[tuple[int, Level]] = []  # the best sampled layouts (stops, level)
        self.best: Design | None = None  # the best verified design (maximize)
        self.best_stops_seen = -1

    # -- bookkeeping ------------------------------------------------------------------------
    def record(self, path: str, **extra) -> dict:
        return {
            "method": "cpsat", "path": path, "seed": self.seed,
            "seconds": round(time.perf_counter() - self.t0, 3), "time_limit": self.time_limit,
            "workers": self.workers, "samples": self.samples, "rejected": self.rejected, **extra,
        }

    def verify(self, level: Level, path: str) -> Design | None:
        """The design if ``level`` passes every check, else None (and one more rejection)."""
        if level in self.excluded:
            return None
        report = analyze(level)
        if _meets(self.request, report, level):
            return Design(level, report, self.record(path))
        self.rejected += 1
        self.progress.update(rejected=self.rejected)
        return None

    def seen(self, stops: int) -> None:
        if stops > self.best_stops_seen:
            self.best_stops_seen = stops
            self.progress.update(best_stops=stops)

    # -- 1. sampling ------------------------------------------------------------------------
    def sample(self) -> Design | None:
        """Seeded random layouts in compiled batches; keeps the best few for the climb."""
        self.progress.update(phase="sampling")
        request = self.request
        space = Space.of(request)
        batch = 0
        # A fixed number of batches (not a time slice), so that the same seed gives the same pool.
        while batch < SAMPLE_BATCHES or (not self.pool and time.perf_counter() < 0.5 * (self.t0 + self.deadline)):
            density = DENSITIES[batch % len(DENSITIES)]
            batch += 1
            terrains, starts, goals = sample_for_request(self.rng, request, SAMPLE_BATCH, density)
            self.samples += SAMPLE_BATCH
            classes, reversible, stops = classify_batch(terrains, starts, goals)
            good = (classes == STRONG) & reversible
            if request.max_rocks is not None:
                good &= space.rocks(terrains) <= request.max_rocks
            if request.max_stops is not None:
                good &= stops <= request.max_stops
            candidates = np.flatnonzero(good)
            candidates = candidates[np.argsort(-stops[candidates], kind="stable")]
            if not self.maximize:
                for k in candidates[stops[candidates] >= request.min_stops]:
                    found = self.verify(batch_level(terrains, starts, goals, int(k)), "sampling")
                    if found:
                        return found
            for k in candidates[:POOL_SIZE]:
                self.pool.append((int(stops[k]), batch_level(terrains, starts, goals, int(k))))
            self.pool = sorted(self.pool, key=lambda item: -item[0])[:POOL_SIZE]
            if self.pool:
                self.seen(self.pool[0][0])
        return None

    # -- 2. neighbourhood search ------------------------------------------------------------
    def climb(self) -> Design | None:
        """Climb from the best samples (then, in tiny spaces, search exact neighbourhoods around the
        best layout); for maximize, the best layout becomes the bar to beat."""
        if not self.pool:
            return None
        self.progress.update(phase="climbing")
        left = max(0.0, self.deadline - time.perf_counter())
        # Maximizing with no proof in reach, the time is better spent on fresh climbs.
        provable = self.proof_within_reach(left)
        restarts = self.maximize and not provable
        share = SEARCH_SHARE_WITHOUT_PROOF if restarts else (CLIMB_SHARE_BEFORE_PROOF if provable else CLIMB_SHARE)
        end = time.perf_counter() + share * left
        target = None if self.maximize else self.request.min_stops
        stall = min(STALL_MAX_SECONDS, max(STALL_MIN_SECONDS, STALL_SHARE * self.time_limit))
        while time.perf_counter() < end:
            level, stops = climb(self.request, self.rng, [lv for _, lv in self.pool], end, target,
                                 self.excluded, on_best=self.seen, stall=stall)
            if level is None:
                return None
            path = "climb"
            if exhaustive.applicable(self.request) and (target is None or stops < target):
                refined, refined_stops = self.refine(level, stops, end, target)
                path = "neighbourhood" if refined_stops > stops else path
                level, stops = refined, refined_stops
            if target is not None and stops < target:
                self.pool.insert(0, (stops, level))  # short of the target: the next stage's hint
                return None
            found = self.verify(level, path)
            if found is None:
                self.excluded.add(level)  # rejected: never offer it again
                continue
            self.pool.insert(0, (stops, level))
            if not self.maximize:
                return found
            if self.best is None or found.min_stops > self.best.min_stops:
                self.best = found
            if not restarts:
                return None
            self.pool = []  # climb again from fresh samples; the best is kept
            self.sample()
            self.progress.update(phase="climbing")
        return None

    def proof_within_reach(self, left: float) -> bool:
        """Whether an exhaustive search could complete in the time the climb would leave it."""
        return exhaustive.applicable(self.request) and (
            exhaustive.estimated_seconds(self.request, self.workers) <= (1 - CLIMB_SHARE_BEFORE_PROOF) * left)

    def refine(self, level: Level, stops: int, end: float, target: int | None) -> tuple[Level, int]:
        """Exact neighbourhoods: release a few rocks of the best layout and place them again in every
        possible way, with every start and goal; move on ties, stop after a long stall."""
        self.progress.update(phase="neighbourhood search")
        last_gain = time.perf_counter()
        stall = min(2 * STALL_MAX_SECONDS, max(STALL_MIN_SECONDS, NEIGHBOURHOOD_STALL_SHARE * self.time_limit))
        while time.perf_counter() < min(end, last_gain + stall) and (target is None or stops < target):
            release = int(self.rng.choice(NEIGHBOURHOOD_RELEASE))
            deadline = time.monotonic() + max(0.0, min(end, last_gain + stall) - time.perf_counter())
            result = exhaustive.search_around(self.request, level, release, stops, deadline, self.rng)
            if result.level is None or result.level in self.excluded:
                continue
            if result.best > stops:
                last_gain = time.perf_counter()
                self.seen(result.best)
            level, stops = result.level, result.best
        return level, stops

    # -- 0. one layout only: every start and goal ----------------------------------------------
    def search_endpoints(self, terrain: np.ndarray) -> Design:
        """A request that leaves only the start and goal to choose (no rocks, no snow): try every
        pair in one compiled pass; when all were tried, the answer is exact."""
        self.progress.update(phase="every start and goal")
        deadline = time.monotonic() + max(0.0, self.deadline - time.perf_counter())
        found, complete = exhaustive.search_endpoints(self.request, terrain, deadline, self.excluded,
                                                      first_only=not self.maximize)
        for stops, level in found:
            self.seen(stops)
            design = self.verify(level, "endpoints")
            if design is None:
                continue
            if not self.maximize:
                return design
            self.best = design
            return self.finish_maximize(proven=complete)
        if complete:
            raise DesignFailed("infeasible", _infeasible_message(self.request)
                               + " (every start and goal tried on the only layout the request allows)")
        raise self.timed_out()

    # -- 3a. exhaustive search (tiny layout spaces) -----------------------------------------
    def exhaustive_fits(self) -> bool:
        """Whether a complete search of the space can be expected within ten times the time left."""
        if not exhaustive.applicable(self.request):
            return False
        left = self.deadline - time.perf_counter()
        return exhaustive.estimated_seconds(self.request, self.workers) <= EXHAUSTIVE_REACH * left

    def search_exhaustively(self) -> Design:
        self.progress.update(phase="exhaustive search")
        request = self.request
        bar = self.best.min_stops + 1 if (self.maximize and self.best) else request.min_stops
        deadline = time.monotonic() + max(0.0, self.deadline - time.perf_counter())
        while True:
            result = exhaustive.search(request, bar, deadline, self.workers, on_best=self.seen,
                                       first_only=not self.maximize)
            if result.level is None:
                break
            found = self.verify(result.level, "exhaustive")
            if found is None:  # cannot happen unless the kernels disagree with the analysis
                raise RuntimeError(f"exhaustive search returned a level that fails verification:\n{result.level}")
            if not self.maximize:
                return found
            self.best = found
            if result.complete:
                return self.finish_maximize(proven=True, searched=result.layouts)
            bar = found.min_stops + 1
        if result.complete:
            if self.maximize and self.best is not None:
                return self.finish_maximize(proven=True, searched=result.layouts)
            raise DesignFailed("infeasible", _infeasible_message(request)
                               + f" (exhaustive search of {result.layouts:,} layouts up to symmetry)")
        if self.maximize and self.best is not None:
            return self.finish_maximize(proven=False)
        raise self.timed_out()

    # -- 3b. CP-SAT --------------------------------------------------------------------------
    def solve_cpsat(self) -> Design:
        self.progress.update(phase="cp-sat")
        from ortools.sat.python import cp_model

        from models.ice_cpsat import build_model

        request = self.request
        built = build_model(request)
        for level in self.excluded:
            built.exclude(level.terrain, level.start, level.goal)
        hint = self.best.level if self.best else (self.pool[0][1] if self.pool else None)
        if hint is not None:
            hinted = _mirror_into_kept_half(request, hint)
            built.hint(hinted.terrain, hinted.start, hinted.goal)
        if self.maximize:
            built.model.maximize(built.goal_stops)
            if self.best is not None:  # only a better level is worth finding now
                built.model.add(built.goal_stops >= self.best.min_stops + 1)
        while True:
            remaining = self.deadline - time.perf_counter()
            if remaining <= 0.05:
                break
            solver = cp_model.CpSolver()
            _set_parameters(solver, self.seed, remaining, self.workers)
            status = _solve_interruptibly(solver, built.model, _Watcher(built.goal_stops, self.progress))
            if status == cp_model.MODEL_INVALID:
                raise RuntimeError(f"CP-SAT model invalid: {built.model.validate()}")
            if status == cp_model.INFEASIBLE:
                if self.maximize and self.best is not None:
                    return self.finish_maximize(proven=True)
                raise DesignFailed("infeasible", _infeasible_message(request))
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                break  # time limit
            terrain, start, goal = built.layout(solver)
            found = self.verify(Level(terrain, start, goal), "cp-sat")
            if found is None:
                built.exclude(terrain, start, goal)
                continue
            if not self.maximize:
                return found
            self.best = found
            if status == cp_model.OPTIMAL:
                return self.finish_maximize(proven=True)
            built.model.add(built.goal_stops >= found.min_stops + 1)
        if self.maximize and self.best is not None:
            return self.finish_maximize(proven=False)
        raise self.timed_out()

    def timed_out(self) -> DesignFailed:
        seen = f" (the best layout seen needs {self.best_stops_seen} stops)" if self.best_stops_seen > 0 else ""
        return DesignFailed(
            "time limit",
            f"time limit reached: no strong reversible level with min stops >= {self.request.min_stops} "
            f"found in {self.time_limit:g} s{seen}",
        )

    def finish_maximize(self, *, proven: bool, **extra) -> Design:
        best = self.best
        generator = dict(best.generator, proven_optimal=proven, rejected=self.rejected, maximize=True,
                         seconds=round(time.perf_counter() - self.t0, 3), **extra)
        return Design(best.level, best.analysis, generator)


def _mirror_into_kept_half(request: LayoutRequest, level: Level) -> Level:
    """The mirror image of ``level`` that the model's symmetry breaking keeps (see build_model)."""
    if request.start is not None or request.goal is not None:
        return level
    terrain, (sr, sc), (gr, gc) = level.terrain, level.start, level.goal
    h, w = level.shape
    if 2 * sc > w - 1:
        terrain, sc, gc = terrain[:, ::-1], w - 1 - sc, w - 1 - gc
    if not request.frame and 2 * sr > h - 1:
        terrain, sr, gr = terrain[::-1, :], h - 1 - sr, h - 1 - gr
    return Level(terrain, (sr, sc), (gr, gc))


class _Watcher:
    """CP-SAT solution callback that reports the goal's stops of each solution found."""

    def __new__(cls, goal_stops, progress: Progress):
        from ortools.sat.python import cp_model

        class Watcher(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                stops = int(self.value(goal_stops))
                if progress.best_stops is None or stops > progress.best_stops:
                    progress.update(best_stops=stops)

        return Watcher()


def _infeasible_message(request: LayoutRequest) -> str:
    band = f"min stops >= {request.min_stops}"
    if request.max_stops is not None:
        band = f"min stops in {request.min_stops}..{request.max_stops}"
    return (f"proven infeasible: no strong reversible {request.height}x{request.width} level "
            f"with {band} exists under these constraints")


def _solve_interruptibly(solver, model, callback):
    """``solver.solve``, with Ctrl-C honoured: CP-SAT takes SIGINT while it searches (the
    ``catch_sigint_signal`` parameter) and returns as if its time limit had come. A search that
    stops without an answer well before its limit was interrupted, so it raises KeyboardInterrupt
    rather than being reported as "time limit reached". (Running the solve in a helper thread so
    that Python sees the signal crashes OR-Tools 9.15 at exit.)"""
    from ortools.sat.python import cp_model

    status = solver.solve(model, callback)
    if status in (cp_model.UNKNOWN, cp_model.FEASIBLE) and (
            solver.wall_time < solver.parameters.max_time_in_seconds - INTERRUPT_MARGIN):
        raise KeyboardInterrupt
    return status


def _set_parameters(solver, seed: int, seconds: float, workers: int) -> None:
    """All CP-SAT parameters, in one place."""
    params = solver.parameters
    params.catch_sigint_signal = True  # Ctrl-C stops the search: see _solve_interruptibly
    params.random_seed = seed
    params.max_time_in_seconds = seconds
    params.num_workers = workers
    # Presolve costs seconds on these models and buys little: keep it light.
    params.max_presolve_iterations = 1
    params.cp_model_probing_level = 0
