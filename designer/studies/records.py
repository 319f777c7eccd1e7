"""Records: for each rock budget, the longest strong, reversible level, proven optimal where a
proof completes (``designer records``).

For one rock count R (``record``), in two stages under one time limit:

1. **lower bound**: sampling and the climb (``search.design.lower_bound``) under ``max_rocks=R`` for a
   tenth (``BOUND_SHARE``) of the time the proof is forecast to take, at least
   ``MIN_BOUND_SECONDS`` and at most a tenth of the time limit; its best level b, or the record
   for R - 1 rocks when that has more stops (it is within the budget too), is the record so far. Where no proof
   is in reach, the designer's own ``--maximize`` gets the whole time instead; on a cluster, where
   ``auto`` would hand its proof to the SAT loop (small walled grids), a short lower bound here
   and then every start and goal pair's loop as a shard on the cluster (``on_cluster``).
2. **proof** (spaces the exhaustive search applies to: no frame or pinned ends, at most 64 free
   cells): every layout of at most R rocks up to symmetry, looking for b + 1 stops or more, in
   shards on the executor (``designer.search.executor``: threads here, or a dask cluster). When it
   completes, the best it found (or b) is proven optimal. When the record for R - 1 rocks is
   proven below b + 1, the sets of fewer than R rocks are not searched again.

A checkpoint (``Checkpoint``) keeps finished records and, for the count in progress, the lower
bound and every finished shard of the proof (written every few seconds, and when the run ends
or stops). A run that was stopped resumes from there: finished
shards are not run again and none is counted twice, since a shard's result is stored under its
key once, when it ends. A finished record keeps the time limit it was made under: one that is
not proven is tried again by a run with a longer limit, its level the bound to beat (a
checkpoint from before the limit was kept tries such a record again once).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from designer.analysis.graph import analyze
from designer.analysis.verify import meets
from designer.core.budget import Budget
from designer.core.control import CancelToken, check
from designer.core.errors import DesignerError
from designer.core.level import Level
from designer.core.request import LayoutRequest
from designer.formats.level_json import level_from_json, level_to_json
from designer.search.design import design, lower_bound
from designer.search.engines import exhaustive
from designer.search.result import DesignFailed
from designer.search.tuning import BOUND_SHARE, MIN_BOUND_SECONDS
from designer.studies.checkpoint import Checkpoint, record_request


@dataclass(frozen=True)
class Record:
    rocks: int
    min_stops: int | None  # None: no strong reversible level found
    proven_optimal: bool
    seconds: float
    level: Level | None
    time_limit: float | None = None  # the limit of the run that made it (None: not known)

    def to_json(self) -> dict:
        return {
            "rocks": self.rocks,
            "min_stops": self.min_stops,
            "proven_optimal": self.proven_optimal,
            "seconds": round(self.seconds, 3),
            "time_limit": self.time_limit,
            "level": level_to_json(self.level) if self.level is not None else None,
        }

    @classmethod
    def from_json(cls, obj: dict) -> Record:
        level = level_from_json(obj["level"]) if obj.get("level") is not None else None
        limit = obj.get("time_limit")
        return cls(
            int(obj["rocks"]),
            obj["min_stops"],
            bool(obj["proven_optimal"]),
            float(obj["seconds"]),
            level,
            None if limit is None else float(limit),
        )


def _fewest_rocks(checkpoint: Checkpoint, rocks: int, threshold: int) -> int:
    """The fewest rocks a proof for ``rocks`` must place: ``rocks`` itself when the record for one
    rock fewer is proven below ``threshold`` (every smaller rock set is then known to fall short,
    since that record's search covered them all), else 0."""
    below = checkpoint.records.get(rocks - 1)
    if below and below["proven_optimal"] and (below["min_stops"] or 0) < threshold:
        return rocks
    return 0


def record(
    height: int,
    width: int,
    frame: bool,
    rocks: int,
    time_limit: float,
    *,
    seed: int = 0,
    workers: int | None = None,
    executor=None,
    checkpoint: Checkpoint | None = None,
    on_phase: Callable[[str], None] | None = None,
    cancel: CancelToken | None = None,
) -> Record:
    """The record for one rock count (see the module docstring); ``cancel`` ends the work, and
    nothing it left unfinished is taken for a record (``Cancelled``; the checkpoint keeps the
    finished shards)."""
    checkpoint = checkpoint or Checkpoint(None, {})
    earlier = None  # a record left unproven by a shorter limit, tried again now
    if rocks in checkpoint.records:
        stored = checkpoint.records[rocks]
        if stored["proven_optimal"] or time_limit <= (stored.get("time_limit") or 0):
            return Record.from_json(stored)
        earlier = checkpoint.records.pop(rocks)
    # this run's clock; time spent before a resume is added to it
    run = Budget(time_limit, ended=cancel)
    elapsed = float(
        checkpoint.partial.get(rocks, {}).get("seconds", earlier["seconds"] if earlier else 0.0)
    )
    known = [
        one
        for one in (checkpoint.records.get(rocks - 1), earlier)
        if one and one["level"] is not None
    ]
    earlier_level = (
        level_from_json(earlier["level"]) if earlier and earlier["level"] is not None else None
    )
    request = record_request(height, width, frame, rocks)
    phase = on_phase or (lambda _: None)

    def finish(level: Level | None, proven: bool) -> Record:
        check(cancel)
        stops = analyze(level).min_stops if level is not None else None
        done = Record(rocks, stops, proven, elapsed + run.elapsed(), level, time_limit)
        checkpoint.records[rocks] = done.to_json()
        checkpoint.partial.pop(rocks, None)
        checkpoint.save()
        return done

    if rocks not in checkpoint.partial:
        phase("lower bound")
        if not exhaustive.applies(request) and on_cluster(request, executor):
            return finish(
                *_refuted_on_cluster(request, executor, run, known, seed, workers, cancel, phase)
            )
        if not exhaustive.applies(request):  # no proof in reach: the designer's own maximize
            try:
                found = design(
                    request,
                    seed=seed,
                    time_limit=time_limit,
                    workers=workers,
                    maximize=True,
                    cancel=cancel,
                )
            except DesignFailed as failed:
                if earlier_level is not None:
                    return finish(earlier_level, False)
                return finish(None, failed.reason == "infeasible")
            if (
                earlier_level is not None
                and earlier is not None
                and earlier["min_stops"] > found.min_stops
            ):
                return finish(earlier_level, False)  # the earlier run's level was better
            return finish(found.level, bool(found.generator.proven_optimal))
        forecast = exhaustive.estimated_seconds(request, workers or os.cpu_count() or 1)
        bound_time = min(time_limit * BOUND_SHARE, max(MIN_BOUND_SECONDS, forecast * BOUND_SHARE))
        lower = lower_bound(
            request, seed=seed, time_limit=bound_time, workers=workers, cancel=cancel
        )
        check(cancel)
        bound = lower.level if lower is not None else None
        stops = lower.min_stops if lower is not None else 0
        for other in known:
            if other["min_stops"] > stops:
                # the record for one rock fewer, or this count's unproven one, is a level within
                # this budget too (both verified when the checkpoint was read)
                bound, stops = level_from_json(other["level"]), other["min_stops"]
        threshold = stops + 1
        checkpoint.partial[rocks] = {
            "bound": level_to_json(bound) if bound is not None else None,
            "threshold": threshold,
            "shards": {},
            "seconds": run.elapsed(),
        }
        checkpoint.save()
    state = checkpoint.partial[rocks]
    bound = level_from_json(state["bound"]) if state["bound"] is not None else None
    proof = run.within(time_limit - elapsed - run.elapsed())
    phase("proof")

    def on_shard(key, result) -> None:
        state["seconds"] = elapsed + run.elapsed()
        checkpoint.add_shard(rocks, key, result)

    result = exhaustive.search(
        request,
        state["threshold"],
        proof,
        workers,
        executor=executor,
        done=checkpoint.shards(rocks),
        on_shard=on_shard,
        fewest_rocks=_fewest_rocks(checkpoint, rocks, state["threshold"]),
    )
    best = (
        result.level
        if result.best >= 0 and result.level is not None and meets(request, result.level)
        else bound
    )
    if result.best >= 0 and best is bound:
        raise DesignerError(f"the exhaustive search's level for {rocks} rocks failed verification")
    return finish(best, result.complete)


def on_cluster(request: LayoutRequest, executor) -> bool:
    """Whether a record with no exhaustive proof goes to the SAT loop's pairs on a cluster
    (``executor`` is one): where ``auto`` itself would hand the proof to the loop."""
    from designer.search.engines.refute import wins_proofs

    return getattr(executor, "remote", False) and wins_proofs(request)


def _refuted_on_cluster(
    request: LayoutRequest, executor, run: Budget, known: list, seed: int, workers, cancel, phase
) -> tuple[Level | None, bool]:
    """A short lower bound here (sampling and the climb), then every start and goal pair's SAT
    loop as a shard on the cluster, above the best known (``designer.search.engines.refute``):
    the record, and whether it is proven optimal."""
    from designer.search.engines.refute import best_on

    found = lower_bound(
        request,
        seed=seed,
        time_limit=min(run.left() * BOUND_SHARE, MIN_BOUND_SECONDS),
        workers=workers,
        cancel=cancel,
    )
    check(cancel)
    bound, stops = (found.level, found.min_stops) if found is not None else (None, 0)
    for other in known:  # the record for one rock fewer, or this count's unproven one
        if other["min_stops"] > stops:
            bound, stops = level_from_json(other["level"]), other["min_stops"]
    phase("proof")
    level, proven = best_on(executor, request, stops + 1, run)
    check(cancel)
    if level is None:
        return bound, proven
    if not meets(request, level):
        raise DesignerError(
            f"the SAT loop's level for {request.max_rocks} rocks failed verification"
        )
    return level, proven


def records(
    height: int,
    width: int,
    frame: bool,
    counts: list[int],
    time_limit: float,
    *,
    seed: int = 0,
    workers: int | None = None,
    executor=None,
    checkpoint_path: Path | None = None,
    on_record: Callable[[Record], None] | None = None,
    on_phase: Callable[[int, str], None] | None = None,
    cancel: CancelToken | None = None,
    on_note: Callable[[str], None] | None = None,
) -> list[Record]:
    """Records for each rock count in ``counts`` (see ``record``), resumable from a checkpoint;
    ``on_note`` hears why a checkpoint's proofs are redone (it is not signed by this user)."""
    key = {"size": f"{height}x{width}", "frame": frame, "seed": seed}
    checkpoint = Checkpoint(checkpoint_path, key)
    checkpoint.verify(height, width, frame)
    if checkpoint.note is not None and on_note is not None:
        on_note(checkpoint.note)
    found = []
    try:
        for rocks in counts:
            phase = (lambda name, r=rocks: on_phase(r, name)) if on_phase else None
            one = record(
                height,
                width,
                frame,
                rocks,
                time_limit,
                seed=seed,
                workers=workers,
                executor=executor,
                checkpoint=checkpoint,
                on_phase=phase,
                cancel=cancel,
            )
            found.append(one)
            if on_record:
                on_record(one)
    finally:  # stopped (Ctrl-C, an error) or done: the last finished shards reach the file too
        checkpoint.save()
    return found


def markdown_table(height: int, width: int, frame: bool, found: list[Record]) -> str:
    """The records as a Markdown table."""
    title = f"{height}x{width}, {'with a frame' if frame else 'no frame'}"
    lines = [
        f"Records, {title}",
        "",
        "| rocks | min stops | proven optimal | seconds |",
        "| --- | --- | --- | --- |",
    ]
    for one in found:
        stops = "-" if one.min_stops is None else str(one.min_stops)
        lines.append(
            f"| {one.rocks} | {stops} | {'yes' if one.proven_optimal else 'no'} | {one.seconds:.1f} |"
        )
    return "\n".join(lines) + "\n"


def records_json(found: list[Record]) -> dict:
    return {"records": [one.to_json() for one in found]}
