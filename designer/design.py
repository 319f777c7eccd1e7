"""The designer: pose a request, search, verify, and never hand back a level that fails.

A design runs as a portfolio, every random choice drawn from the seed:

1. **sampling**: seeded random layouts, classified in compiled batches. Cheap, and for small
   targets (K up to about 20 on 12x12) the fastest way to a level; for larger ones it supplies
   the best layout it saw as a hint.
2. **cp-sat**: the model of ``models.ice_cpsat`` (strong solvability, reversibility and the
   min-stops bound are all inside it), solved under the time limit with the seed and workers
   given, hinted with the best sampled layout. With ``maximize`` it raises the goal's stops as
   far as it can and says whether that is proven optimal.

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

from designer.analysis import Analysis, analyze
from designer.errors import DesignerError
from designer.fast import STRONG, classify_batch
from designer.level import ROCK, Level
from designer.sampling import batch_level, sample_for_request
from models.request import LayoutRequest

#: Largest grid the designer accepts (the model grows with cells x slide length).
MAX_DESIGN_SIDE = 40
SAMPLE_BATCH = 4096
DENSITIES = (0.15, 0.2, 0.25, 0.3)


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


def _sampling_budget(request: LayoutRequest, time_limit: float, maximize: bool) -> float:
    """Seconds given to sampling: long enough to meet small targets outright, short otherwise."""
    cells = request.height * request.width
    reachable_by_luck = request.min_stops <= max(8, int(1.6 * cells ** 0.5 + 2))  # ~21 on 12x12
    share = 1.5 if reachable_by_luck and not maximize else 0.3
    return min(share, 0.25 * time_limit)


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
    """
    validate(request)
    progress = progress or Progress()
    t0 = time.perf_counter()
    deadline = t0 + time_limit
    workers = workers or os.cpu_count() or 1
    rng = np.random.default_rng(seed)
    excluded = set(exclude)
    rejected = 0

    def record(path: str, **extra) -> dict:
        return {
            "method": "cpsat", "path": path, "seed": seed, "seconds": round(time.perf_counter() - t0, 3),
            "time_limit": time_limit, "workers": workers, "rejected": rejected, **extra,
        }

    # 1. sampling
    progress.update(phase="sampling")
    hint: Level | None = None
    hint_stops = -1
    best_seen: Design | None = None
    sampling_end = t0 + _sampling_budget(request, time_limit, maximize)
    batch = 0
    while time.perf_counter() < sampling_end:
        density = DENSITIES[batch % len(DENSITIES)]
        batch += 1
        terrains, starts, goals = sample_for_request(rng, request, SAMPLE_BATCH, density)
        classes, reversible, stops = classify_batch(terrains, starts, goals)
        good = (classes == STRONG) & reversible
        if request.max_rocks is not None:
            free = np.zeros(terrains.shape[1:], bool)
            for cell in request.free_cells():
                free[cell] = True
            good &= (terrains[:, free] == ROCK).sum(axis=1) <= request.max_rocks
        if request.max_stops is not None:
            good &= stops <= request.max_stops
        candidates = np.flatnonzero(good)
        if candidates.size == 0:
            continue
        best = int(candidates[np.argmax(stops[candidates])])
        if stops[best] > hint_stops:
            hint, hint_stops = batch_level(terrains, starts, goals, best), int(stops[best])
            progress.update(best_stops=max(progress.best_stops or 0, hint_stops))
        if maximize:
            continue
        for k in candidates[stops[candidates] >= request.min_stops]:
            level = batch_level(terrains, starts, goals, int(k))
            if level in excluded:
                continue
            report = analyze(level)
            if _meets(request, report, level):
                return Design(level, report, record("sampling", samples=batch * SAMPLE_BATCH))
            rejected += 1
            progress.update(rejected=rejected)
    if hint is not None:
        report = analyze(hint)
        if _meets(request, report, hint) and hint not in excluded:
            best_seen = Design(hint, report, record("sampling", samples=batch * SAMPLE_BATCH))

    # 2. CP-SAT
    progress.update(phase="cp-sat")
    from ortools.sat.python import cp_model

    from models.ice_cpsat import build_model

    built = build_model(request)
    for level in excluded:
        built.exclude(level.terrain, level.start, level.goal)
    if hint is not None:
        hinted = _mirror_into_kept_half(request, hint)
        built.hint(hinted.terrain, hinted.start, hinted.goal)
    if maximize:
        built.model.maximize(built.goal_stops)
        if best_seen is not None:
            built.model.add(built.goal_stops >= best_seen.min_stops)
    while True:
        remaining = deadline - time.perf_counter()
        if remaining <= 0.05:
            break
        solver = cp_model.CpSolver()
        _set_parameters(solver, seed, remaining, workers)
        status = solver.solve(built.model, _Watcher(built.goal_stops, progress))
        if status == cp_model.INFEASIBLE:
            if maximize and best_seen is not None:
                return _finish_maximize(best_seen, proven=True, rejected=rejected, t0=t0)
            raise DesignFailed("infeasible", _infeasible_message(request))
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break  # time limit
        terrain, start, goal = built.layout(solver)
        level = Level(terrain, start, goal)
        report = analyze(level)
        if _meets(request, report, level) and level not in excluded:
            found = Design(level, report, record("cp-sat"))
            if not maximize:
                return found
            best_seen = found
            progress.update(best_stops=found.min_stops)
            if status == cp_model.OPTIMAL:
                return _finish_maximize(found, proven=True, rejected=rejected, t0=t0)
            built.model.add(built.goal_stops >= found.min_stops + 1)  # look for better in the time left
            continue
        rejected += 1
        progress.update(rejected=rejected)
        built.exclude(terrain, start, goal)
    if maximize and best_seen is not None:
        return _finish_maximize(best_seen, proven=False, rejected=rejected, t0=t0)
    best_note = f" (the best layout seen needs {hint_stops} stops)" if hint_stops > 0 else ""
    raise DesignFailed(
        "time limit",
        f"time limit reached: no strong reversible level with min stops >= {request.min_stops} "
        f"found in {time_limit:g} s{best_note}",
        best_seen,
    )


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


def _finish_maximize(found: Design, *, proven: bool, rejected: int, t0: float) -> Design:
    generator = dict(found.generator, proven_optimal=proven, rejected=rejected,
                     seconds=round(time.perf_counter() - t0, 3), maximize=True)
    return Design(found.level, found.analysis, generator)


def _infeasible_message(request: LayoutRequest) -> str:
    band = f"min stops >= {request.min_stops}"
    if request.max_stops is not None:
        band = f"min stops in {request.min_stops}..{request.max_stops}"
    return (f"proven infeasible: no strong reversible {request.height}x{request.width} level "
            f"with {band} exists under these constraints")


def _set_parameters(solver, seed: int, seconds: float, workers: int) -> None:
    """All CP-SAT parameters, in one place."""
    params = solver.parameters
    params.random_seed = seed
    params.max_time_in_seconds = seconds
    params.num_workers = workers
    # Presolve costs seconds on these models and buys little: keep it light.
    params.max_presolve_iterations = 1
    params.cp_model_probing_level = 0
