"""What the stages of a design share: ``Search``, the state of one design (the request and goal,
one budget, one verifier, the seed's random stream, the pool and the best design so far);
``StageResult``, what a stage hands back for ``Search.absorb`` to take in; ``Progress``, what a
caller may watch; and ``timed``, which adds a stage's running time to the record.
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from designer.analysis.classify import classify
from designer.analysis.graph import analyze
from designer.analysis.tidy import tidy
from designer.analysis.verify import failure, room_analysis, room_failure
from designer.core.budget import Budget
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.search.goal import Goal
from designer.search.result import (
    Design,
    DesignFailed,
    GeneratorRecord,
    choice_figures,
    infeasible_message,
)


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


@dataclass(frozen=True)
class StageResult:
    """What a stage returns.

    ``design``: a verified level. Meeting K, it meets K (the search is over); maximizing, it is
    the stage's best. ``complete``: the stage searched everything above its bar, so no level it
    missed exists (a proof). ``pool``: when not None, the stage's best unverified layouts (stops,
    level), best first, for the next stage to start from. ``skipped``: why the stage could not run."""

    design: Design | None = None
    complete: bool = False
    layouts: int = 0  # exhaustive search: layouts evaluated
    pool: tuple[tuple[int, Level], ...] | None = None
    skipped: str | None = None


class Search:
    """What the stages share: the request and goal, one budget, one verifier, the seed's random
    stream; and what has been found so far, which only ``absorb`` changes: the pool of good
    layouts (stops, level), best first, and the best verified design."""

    def __init__(
        self,
        request: LayoutRequest,
        goal: Goal,
        *,
        seed: int,
        budget: Budget,
        workers: int,
        method: str,
        excluded: set[Level],
        progress: Progress,
        executor=None,
    ):
        self.request, self.goal, self.seed, self.budget, self.workers = (
            request,
            goal,
            seed,
            budget,
            workers,
        )
        self.executor = executor  # where the exhaustive search's shards run (None: threads here)
        self.method, self.excluded, self.progress = method, excluded, progress
        # levels excluded from the start (a pack's earlier ones), for proofs' words
        self.made = len(excluded)
        self.rng = np.random.default_rng(seed)
        self.pool: list[tuple[int, Level]] = []
        self.best: Design | None = None
        # Counts for the generator record and the progress display.
        self.rejected = 0
        self.samples = 0
        self.best_stops_seen = -1
        self.best_options_seen = -1
        self.closest_failure: tuple[int, str] | None = (
            None  # (stops, why) of the best rejected level
        )
        self.skipped: list[str] = []  # stages that could not run in the time left, and why
        # The portfolio runs the model beside the other stages: what they share changes under this.
        self.lock = threading.RLock()
        self.ran: dict[str, float] = {}  # seconds each stage has run so far
        self.running: dict[
            int, tuple[str, float]
        ] = {}  # by thread: the stage running there, since when

    def stage_seconds(self) -> dict[str, float]:
        """Seconds each stage has run, those running now counted to this moment (two stages run
        at once in the portfolio, so they may add up to more than the run took)."""
        with self.lock:
            seconds = dict(self.ran)
            now = time.perf_counter()
            for name, since in self.running.values():
                seconds[name] = seconds.get(name, 0.0) + now - since
        return {name: round(value, 3) for name, value in seconds.items()}

    def absorb(self, result: StageResult) -> Design | None:
        """Take a stage's result in: its pool replaces the pool, its design becomes the best when
        it beats it. Returns the result's design."""
        with self.lock:
            return self._absorb(result)

    def _absorb(self, result: StageResult) -> Design | None:
        if result.pool is not None:
            self.pool = list(result.pool)
        if result.skipped:
            self.skipped.append(result.skipped)
        found = result.design
        if found is not None and (self.best is None or self.score(found) > self.score(self.best)):
            self.best = found
        return found

    def score(self, design: Design) -> int:
        """What the goal counts of a design: its min stops, or the options along its solution (a
        room's: along each route, or a stop, as ``designer.search.engines.rooms`` scores them)."""
        if self.goal.objective == "per_stop":
            return design.per_stop_milli
        return design.options if self.goal.objective == "options" else design.min_stops

    def record(self, stage: str, **extra) -> GeneratorRecord:
        return GeneratorRecord(
            method=self.method,
            stage=stage,
            seed=self.seed,
            seconds=round(self.budget.seconds(), 3),
            time_limit=self.budget.time_limit,
            request=self.request,
            workers=self.workers,
            samples=self.samples,
            rejected=self.rejected,
            skipped=tuple(self.skipped),
            stage_seconds=self.stage_seconds(),
            **extra,
        )

    def verify(self, level: Level, stage: str) -> Design | None:
        """The design if ``level`` passes the verifier (``designer.analysis.verify``), else None:
        one more rejection, and the level is never offered again. With ``--tidy``, spare rocks are
        turned into ice first (``designer.analysis.tidy``)."""
        with self.lock:
            return self._verify(level, stage)

    def _verify(self, level: Level, stage: str) -> Design | None:
        if level in self.excluded:
            return None
        extra, floor = {}, None
        if self.request.tidy:
            # maximizing, a tile is spare when removing it keeps the level's own stops
            floor = (
                (classify(level).min_stops or 0) if self.goal.maximizing else self.request.min_stops
            )
            tidied = tidy(self.request, level, floor)
            if tidied is not None and tidied != level:
                extra = {"tidied": int((level.terrain != tidied.terrain).sum())}
            level = tidied if tidied is not None else level
            if level in self.excluded:
                return None
        routes = room_analysis(self.request, level) if self.request.is_room else None
        report = routes.routes[0].analysis if routes else analyze(level)
        if self.request.asks_for_choices or self.goal.objective != "stops":
            # a room: the figures of the route with the fewest options
            fewest = (
                min(routes.routes, key=lambda one: one.analysis.options).analysis
                if routes
                else report
            )
            extra.update(choice_figures(fewest))
            self.best_options_seen = max(self.best_options_seen, fewest.options)
        why = (
            room_failure(self.request, level, routes)
            if routes
            else failure(self.request, level, report, floor)
        )
        stops = (
            min(one.analysis.min_stops or 0 for one in routes.routes)
            if routes
            else report.min_stops or 0
        )
        if why is None:
            return Design(level, report, self.record(stage, **extra), routes)
        if self.closest_failure is None or stops > self.closest_failure[0]:
            self.closest_failure = (stops, why)
        self.excluded.add(level)
        self.rejected += 1
        self.progress.update(rejected=self.rejected)
        return None

    def starting_layout(self) -> tuple[int, Level] | None:
        """Where a stage that improves a layout starts: (stops, level) of the best verified design
        so far, else of the head of the pool; None when there is neither."""
        if self.best is not None:
            return self.best.min_stops, self.best.level
        return self.pool[0] if self.pool else None

    def seen(self, stops: int) -> None:
        """A search's new best score: min stops, shown as the best so far (a room meeting its floors
        counts a sum over routes, which is no number of stops: not shown)."""
        if stops > self.best_stops_seen:
            self.best_stops_seen = stops
            if request_kind(self.request).shows_best_stops(self.goal.maximizing):
                self.progress.update(best_stops=stops)

    def timed_out(self) -> DesignFailed:
        request, most = self.request, self.best_stops_seen
        seen = ""
        # its searches count a score over routes, not stops: what the verifier said
        if request.is_room:
            return self._room_timed_out()
        if most > 0 and (most < request.min_stops or self.closest_failure is None):
            # what the searches' layouts reached; none of them was a level that passed the checks
            seen = f" (the best layout seen needs {most} stops" + (
                ")" if most < request.min_stops else "; no level was checked in the time)"
            )
        elif self.closest_failure is not None:
            stops, why = self.closest_failure
            seen = f" (the closest level seen, of {stops} stop{'s' if stops != 1 else ''}, failed the checks: {why})"
        asked = "" if self.goal.maximizing else f" with min stops >= {request.min_stops}"
        if request.min_choices is not None:
            asked += f"{' and' if asked else ' with'} at least {request.min_choices} options along the solution"
            if self.best_options_seen >= 0:
                seen = f" (the best level seen has {self.best_options_seen} options)"
        if request.unique:
            asked += f"{' and' if asked else ' with'} exactly one fewest-moves solution"
        skipped = "".join(f"; {why}" for why in self.skipped)
        return DesignFailed(
            "time limit",
            f"time limit reached: no strong reversible level{asked} "
            f"found in {self.budget.time_limit:g} s{seen}{skipped}",
        )

    def _room_timed_out(self) -> DesignFailed:
        routes = self.request.routes_text()
        seen = ""
        if self.closest_failure is not None:
            seen = f" (the closest room seen failed the checks: {self.closest_failure[1]})"
        elif self.best_options_seen >= 0 and self.request.min_choices is not None:
            seen = f" (the best room seen has {self.best_options_seen} options along its poorest route)"
        skipped = "".join(f"; {why}" for why in self.skipped)
        choices = (
            ""
            if self.request.min_choices is None
            else (f", with at least {self.request.min_choices} options along each,")
        )
        return DesignFailed(
            "time limit",
            f"time limit reached: no room whose routes ({routes}) are all strong and "
            f"reversible{choices} found in {self.budget.time_limit:g} s{seen}{skipped}",
        )

    def infeasible(self, detail: str = "") -> DesignFailed:
        return DesignFailed("infeasible", infeasible_message(self.request, made=self.made) + detail)

    def finish_maximize(self, *, proven: bool, searched: int | None = None) -> Design:
        """The best design, its record saying how the whole run ended."""
        best = self.best
        assert best is not None, "finished once a level is found"
        by_stops = self.goal.objective == "stops"
        generator = best.generator.but(
            proven_optimal=proven,
            rejected=self.rejected,
            samples=self.samples,
            maximize=by_stops,
            maximize_choices=not by_stops,
            seconds=round(self.budget.seconds(), 3),
            searched=searched,
            skipped=tuple(self.skipped),
            stage_seconds=self.stage_seconds(),
        )
        return replace(best, generator=generator)


def timed(name: str):
    """A stage whose running time is added to ``search.ran[name]`` (and to the record)."""

    def wrap(stage):
        @functools.wraps(stage)
        def run(search: Search, *args, **kwargs) -> StageResult:
            key = threading.get_ident()
            with search.lock:
                outer = search.running.get(key)
                search.running[key] = (name, time.perf_counter())
            try:
                return stage(search, *args, **kwargs)
            finally:
                with search.lock:
                    _, since = search.running.pop(key)
                    search.ran[name] = search.ran.get(name, 0.0) + time.perf_counter() - since
                    if outer is not None:  # a stage run inside another: the outer one goes on
                        search.running[key] = (outer[0], time.perf_counter())

        return run

    return wrap
