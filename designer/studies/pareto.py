"""The Pareto front over (min stops, options along the solution): source 000's proposal of
looking for levels where both measures of difficulty are high (``designer pareto``).

The front is built from the designer's own runs, under one time budget:

1. **length**: ``--maximize`` (min stops) for ``LENGTH_SHARE`` of the time: the front's
   longest level L, and how far the bands below may reach;
2. **floors** (the epsilon-constraint method): ``--maximize-choices`` with min stops at least
   K, for floors K from L down, two stops apart on a frame (one without), as many as
   ``MIN_RUN_SECONDS`` each allows, never below where a level could still beat the longest
   level's O options (O / 3 + 1: a stop offers at most three other moves); an equal share of the
   rest of the time each. Each run starts from the level with the most options so
   far among those of at least K stops (in process), or from the longest level (on a cluster,
   all at once). Where the chains that count choices cannot run (snow to place), a run is the
   first level its floor allows;
3. **the front**: the levels that no other beats in both measures, sorted by min stops.

Every level is strong and reversible (each run's own verifier), and none dominates another.
``clouds`` samples what random generation (source 000's 20% rocks) and the repair generator
(source 002) give on the same grid, for ``plot`` to draw the front over them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from designer.analysis.graph import analyze
from designer.core.budget import Budget
from designer.core.control import CancelToken, check
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.search.design import design
from designer.search.design import run as run_design
from designer.search.engines import anneal
from designer.search.executor import InProcess
from designer.search.job import DesignJob
from designer.search.result import Design, DesignFailed
from designer.search.validation import validate

#: The share of the time limit the longest level gets; the bands share the rest.
LENGTH_SHARE = 0.25
#: The runs below the longest level get at least this many seconds each (so many floors fit),
#: and the lowest floor is never below ``LOWEST_FLOOR`` stops.
MIN_RUN_SECONDS = 6.0
LOWEST_FLOOR = 3
#: Other moves a stop can offer at most (four directions, one of them the solution's).
MAX_OPTIONS_PER_STOP = 3
#: With a plot, the clouds' share of the time limit (and at most this many seconds).
CLOUD_SHARE, CLOUD_MAX_SECONDS = 0.1, 15.0
#: Source 000's random maps: rocks with this probability; how many are drawn.
CLOUD_DENSITY, CLOUD_MAPS = 0.2, 3000


@dataclass(frozen=True)
class Point:
    """A level on (or off) the front: its two measures."""

    min_stops: int
    options: int
    design: Design | None = None  # the designer's levels; None for a cloud's
    difficulty: float | None = None  # the model's predicted difficulty (designer.analysis.player)

    def measure(self, axis: str) -> float:
        """The second measure: ``options``, or ``difficulty`` (a designed level's: always predicted)."""
        if axis == "options":
            return self.options
        assert self.difficulty is not None
        return self.difficulty


def dominates(a: Point, b: Point) -> bool:
    """Whether ``a`` is at least as good as ``b`` in both measures and better in one.

    >>> dominates(Point(20, 30), Point(20, 29)), dominates(Point(20, 30), Point(21, 10))
    (True, False)
    """
    return (
        a.min_stops >= b.min_stops
        and a.options >= b.options
        and (a.min_stops, a.options) != (b.min_stops, b.options)
    )


def front_of(points: list[Point], axis: str = "options") -> list[Point]:
    """The points no other dominates (one of each (stops, measure) pair), by min stops; the
    second measure is ``axis``'s (``Point.measure``).

    >>> [(p.min_stops, p.options) for p in front_of([Point(5, 9), Point(9, 12), Point(9, 12), Point(7, 20)])]
    [(7, 20), (9, 12)]
    """
    best: list[Point] = []
    for point in sorted(points, key=lambda p: (-p.min_stops, -p.measure(axis))):
        if not best or point.measure(axis) > best[-1].measure(axis):
            best.append(point)
    return best[::-1]


def covered(point: Point, front: list[Point]) -> bool:
    """Whether some level of ``front`` has at least ``point``'s stops and options.

    >>> covered(Point(12, 20), [Point(15, 30)]), covered(Point(12, 31), [Point(15, 30)])
    (True, False)
    """
    return any(p.min_stops >= point.min_stops and p.options >= point.options for p in front)


def most_runs(time_limit: float) -> int:
    """The most runs (and so levels on the front) a time limit allows: the longest level and a
    run per ``MIN_RUN_SECONDS`` of the rest."""
    return 1 + max(1, int((1 - LENGTH_SHARE) * time_limit / MIN_RUN_SECONDS))


def floors(first: int, last: int, count: int, step: int) -> list[int]:
    """At most ``count`` floors on min stops, from ``last`` down towards ``first``, ``step``
    apart: the front lies near the longest level, so the floors are spent there first.

    >>> floors(22, 55, 15, 2), floors(50, 55, 15, 2), floors(9, 8, 5, 1)
    ([55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29, 27], [55, 53, 51], [])
    """
    return list(range(last, first - 1, -step))[:count]


@dataclass(frozen=True)
class Front:
    """The front (``levels``, by min stops) and every level the runs made (``tried``), the
    dominated ones too: what the designer reached at each length."""

    levels: list[Point]
    tried: list[Point]


def pareto(
    request: LayoutRequest,
    time_limit: float,
    *,
    seed: int = 0,
    workers: int | None = None,
    executor=None,
    on_run: Callable[[str], None] = lambda what: None,
    cancel: CancelToken | None = None,
    axis: str = "options",
) -> Front:
    """The front for the layout space of ``request`` (its min stops is ignored: every band is
    tried) within ``time_limit`` seconds; ``on_run(what)`` is called as each run ends. With a
    cluster ``executor`` the band runs go out at once, each with its share of the time. ``cancel``
    ends the work in this process (``Cancelled``). ``axis`` "difficulty": the same runs, the front
    taken over min stops and the model's predicted difficulty of every level they made."""
    request = replace(request, min_stops=1, max_stops=None, min_choices=None)
    validate(request)
    budget = Budget(time_limit, ended=cancel)
    workers = workers or os.cpu_count() or 1
    runs: list[Design] = []
    try:
        runs.append(
            design(
                request,
                seed=seed,
                time_limit=LENGTH_SHARE * budget.left(),
                workers=workers,
                maximize=True,
                cancel=cancel,
            )
        )
    except DesignFailed:
        pass
    check(cancel)
    on_run("the longest level")
    top = runs[0] if runs else None
    if top is None:  # no level at all: the first band the request allows, from nothing
        found = run_floor(
            floor_job(
                replace(request, min_stops=LOWEST_FLOOR),
                seed + 1,
                budget.left(),
                workers,
                cancel=cancel,
            )
        )
        check(cancel)
        runs += [found] if found is not None else []
        on_run(f"at least {LOWEST_FLOOR} stops")
    else:
        # A level of K stops has at most 3K options (three other moves at each stop): below
        # O / 3 stops nothing can beat the longest level's O options.
        # Floors two stops apart on a frame (where min stops keeps its parity), one apart without.
        count = max(1, int(budget.left() / MIN_RUN_SECONDS))
        ks = floors(
            max(LOWEST_FLOOR, top.analysis.options // MAX_OPTIONS_PER_STOP + 1),
            top.min_stops,
            count,
            2 if request.frame else 1,
        )
        jobs = [
            floor_job(
                replace(request, min_stops=k),
                seed + 1 + n,
                budget.left() / len(ks),
                workers,
                top.level,
                cancel,
            )
            for n, k in enumerate(ks)
        ]
        # at once, each from the longest level
        if executor is not None and not isinstance(executor, InProcess):

            def ran(job, found) -> None:
                if found:
                    runs.append(found)
                on_run(f"at least {job.request.min_stops} stops")

            executor.run(run_floor, jobs, ran)
        else:  # down the floors, each run from the best level so far above its floor
            for n, job in enumerate(jobs):
                start = max(
                    (run for run in runs if run.min_stops >= job.request.min_stops),
                    key=lambda run: run.analysis.options,
                )
                found = run_floor(
                    job.but(time_limit=budget.left() / (len(jobs) - n), hint=start.level)
                )
                check(cancel)
                runs += [found] if found is not None else []
                on_run(f"at least {job.request.min_stops} stops")
    from designer.analysis.player import play
    from designer.search.felt import player_of

    who = player_of(request)  # --player's, or the default
    tried = sorted(
        (
            Point(run.min_stops, run.analysis.options, run, play(run.level, who).difficulty)
            for run in runs
        ),
        key=lambda p: p.min_stops,
    )
    return Front(front_of(tried, axis), tried)


def floor_job(
    request: LayoutRequest,
    seed: int,
    time_limit: float,
    workers: int,
    hint: Level | None = None,
    cancel: CancelToken | None = None,
) -> DesignJob:
    """One run of the front (a floor on min stops, ``request``'s), as a picklable job for an
    executor: the most options the request allows, from ``hint`` (a level above the floor), or
    the first level it allows where choices cannot be counted. On a cluster ``cancel`` is a token
    of the job's own (the executor ends the job)."""
    return DesignJob.derived(
        request,
        seed=seed,
        time_limit=time_limit,
        workers=workers,
        maximize_choices=anneal.applies(request),
        hint=hint,
        cancel=cancel,
    )


def run_floor(job: DesignJob) -> Design | None:
    """The level of a floor's job (``floor_job``); None when its request allows none."""
    try:
        return run_design(job)
    except DesignFailed:
        return None


def clouds(request: LayoutRequest, time_limit: float, *, seed: int = 0) -> dict[str, list[Point]]:
    """What random generation (``CLOUD_MAPS`` maps, rocks at ``CLOUD_DENSITY``) and the repair
    generator (as many levels as half the time allows) give in ``request``'s layout space: their
    strong, reversible levels as points, for the plot."""
    from designer.analysis.classify import STRONG, classify_batch
    from designer.search import methods
    from designer.search.engines.sampling import batch_level, sample_for_request

    budget = Budget(time_limit)
    rng = np.random.default_rng(seed)
    request = replace(request, min_stops=1, max_stops=None, min_choices=None, unique=False)
    terrains, starts, goals = sample_for_request(rng, request, CLOUD_MAPS, CLOUD_DENSITY)
    classes, reversible, _ = classify_batch(terrains, starts, goals)
    random_points = []
    for k in np.flatnonzero((classes == STRONG) & reversible):
        if budget.left() < time_limit / 2:
            break
        report = analyze(batch_level(terrains, starts, goals, int(k)))
        assert report.min_stops is not None  # strong
        random_points.append(Point(report.min_stops, report.options))
    repair_points = []
    run = 0
    while budget.left() > 0.2:
        run += 1
        try:
            found = methods.get("repair").run(
                DesignJob.derived(request, seed=seed + run, time_limit=min(2.0, budget.left()))
            )
        except DesignFailed:
            continue
        repair_points.append(Point(found.min_stops, found.analysis.options))
    return {"random": random_points, "repair": repair_points}


def plot(front: Front, cloud: dict[str, list[Point]], path, title: str) -> None:
    """The front over the clouds, min stops against options along the solution, with every
    level the designer's runs made (a PNG to a path or a binary file)."""
    from designer.core.extras import need

    matplotlib = need("matplotlib", "plot")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, marker, colour in (("random", ".", "#9aa7b8"), ("repair", "x", "#d08a3c")):
        points = cloud.get(name, [])
        if points:
            ax.scatter(
                [p.min_stops for p in points],
                [p.options for p in points],
                marker=marker,
                s=14,
                color=colour,
                alpha=0.6,
                label=f"{name} ({len(points)} strong, reversible)",
            )
    ax.plot(
        [p.min_stops for p in front.tried],
        [p.options for p in front.tried],
        marker=".",
        color="#7f9cc7",
        label=f"the designer's runs ({len(front.tried)} levels)",
    )
    count = len(front.levels)
    ax.scatter(
        [p.min_stops for p in front.levels],
        [p.options for p in front.levels],
        s=60,
        color="#1f4e8c",
        zorder=3,
        label=f"the front ({count} level{'s' if count != 1 else ''}, none dominated)",
    )
    ax.set_xlabel("min stops")
    ax.set_ylabel("options along the solution")
    ax.set_title(title)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110, format="png")
    plt.close(fig)
