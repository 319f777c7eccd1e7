"""Designing: one level or a pack, from what a user asks or from a designed level's record.

Three calls, in the order a shell makes them:

1. ``plan(asked)`` turns what the user asked for (an ask: the fields given, by name:
   ``designer.ops.asks``) into a ``Plan``: each level's ``DesignJob``, its request (a preset or
   a curve expanded) and the run's settings; or ``plan_from(path, ...)`` reads them from a
   designed level's generator record (``make --from``). Each job checks its request once, when it
   is built, before any work.
2. ``check(plan, output)`` checks where the levels go (``LevelOutput``), before any work.
3. ``make(plan, output, on_progress=..., cancel=...)`` designs and verifies every level (the
   one verifier, through ``designer.search``), writes the files and returns a ``Made``.

>>> made = make(plan({"min_stops": 12, "seed": 3, "time_limit": 30}), LevelOutput())
>>> made.designs[0].min_stops >= 12, made.text.count("\\n") == 12
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from designer.core.control import CancelToken, OnProgress, Steps, no_progress
from designer.core.control import check as check_cancel
from designer.core.errors import DesignerError, RequestError, literal
from designer.core.limits import MAX_LEVELS, MAX_SEED, seconds, whole
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind
from designer.ops import asks
from designer.search.job import DesignJob


@dataclass(frozen=True)
class Plan:
    """What ``make`` runs: each level's job (``designer.search.job.DesignJob``: its request and
    how it is designed), in order. Levels that ask the same share one job: each request is
    checked once."""

    jobs: tuple[DesignJob, ...]

    @property
    def job(self) -> DesignJob:
        """The first level's job, whose settings every level's share."""
        return self.jobs[0]

    @property
    def count(self) -> int:
        return len(self.jobs)


@dataclass(frozen=True)
class LevelOutput:
    """Where designed levels go: ``file`` (one level), ``folder`` (a pack, level-NNN.txt or
    .json), or neither (the text comes back in ``Made.text``, for standard output)."""

    file: str | None = None
    folder: str | None = None
    fmt: str = "ascii"  # or "json": the JSON level with its record and analysis
    force: bool = False


@dataclass(frozen=True)
class Made:
    """The designed levels, in order, and the text of the first when no file took it."""

    designs: list
    text: str | None


def plan(asked: Mapping[str, Any]) -> Plan:
    """The plan of ``make`` for an ask (``designer.ops.asks``: the fields given, by name):
    presets and curves expanded, every request checked, the method able to do what is asked
    (one line in the request's own words otherwise)."""
    count = asked.get("count", 1)
    whole(count, "{count}", 1, MAX_LEVELS)
    request = asks.request_of(asked)
    curve_by = asked.get("curve_by", "stops")
    if curve_by not in ("stops", "difficulty"):
        raise RequestError(f"{{curve_by}} is stops or difficulty, not {literal(repr(curve_by))}")
    requests, expert = asks.targeted(asked, request)
    settings = {name: asked[name] for name in asks.RUN if asked.get(name) is not None}
    return _checked(requests, DesignJob.derived(requests[0], **settings, difficulty=expert))


def plan_from(source: str, *, time_limit: float | None = None, workers: int | None = None) -> Plan:
    """The plan that a designed level's generator record gives (``make --from``): its request,
    method, seed and time limit; ``time_limit`` and ``workers`` may override the record's."""
    from designer.formats.level_files import read_level_file_or_room
    from designer.search.result import GeneratorRecord

    generator = read_level_file_or_room(source).generator
    try:
        record = GeneratorRecord.from_json(generator or None)
    except DesignerError as exc:
        raise DesignerError(f"--from {source}: {exc}") from None
    assert record.request is not None  # from_json refuses a record without one
    settings = DesignJob.derived(
        record.request,
        method=record.method,
        seed=record.seed,
        time_limit=record.time_limit if time_limit is None else time_limit,
        workers=record.workers if workers is None else workers,
        maximize=record.maximize,
        maximize_choices=record.maximize_choices,
        difficulty=record.difficulty,
    )
    return _checked([record.request], settings)


def _checked(requests: list, settings: DesignJob) -> Plan:
    """The plan of a job for each of ``requests`` with the run's ``settings`` (a job not yet
    checked): each distinct request checked once, as its job is built, then the run's settings."""
    from designer.search.methods import designer_names, get

    built: dict = {}
    for one in requests:
        if one not in built:
            built[one] = replace(settings, request=one)  # a job checks its request as it is built
    made = Plan(tuple(built[one] for one in requests))
    whole(settings.seed, "{seed}", 0, MAX_SEED)
    if settings.seed + made.count - 1 > MAX_SEED:
        raise RequestError(
            f"{{seed}} {settings.seed} with {{count}} {made.count}: the last level's seed would "
            f"pass {MAX_SEED}"
        )
    seconds(settings.time_limit, "{time_limit}")
    # a name from a page or a record is input like any other: one line if unknown
    method = get(settings.method)
    for asked, name in (
        (settings.maximize, "{maximize}"),
        (settings.maximize_choices, "{maximize_choices}"),
    ):
        if asked and not method.can_maximize:
            raise RequestError(
                f"{name} needs {{method}} {designer_names()} (the {settings.method} generator has "
                "no proof of a best)"
            )
    return made


def check(made: Plan, output: LevelOutput) -> list[Path]:
    """Check before any work that the levels can go where ``output`` says; the pack's paths."""
    from designer.formats import output as files

    if output.folder is None and made.count > 1:
        raise DesignerError("--count needs --out DIR for the pack")
    if output.folder is not None and output.file is not None:
        raise DesignerError("use either -o FILE (one level) or --out DIR (a pack), not both")
    if output.folder is not None:
        suffix = "json" if output.fmt == "json" else "txt"
        return files.check_folder(
            output.folder,
            [f"level-{k + 1:03d}.{suffix}" for k in range(made.count)],
            force=output.force,
        )
    if output.file is not None and output.file != "-":
        files.check_file(output.file, force=output.force)
    return []


def level_text(found, fmt: str) -> str:
    """A designed level as its file holds it: canonical ASCII, or the JSON level with its record."""
    from designer.formats.level_json import format_json, level_to_json, room_to_json

    if found.room is not None:  # doors as their digits; the JSON room with every route's analysis
        if fmt == "json":
            return format_json(
                room_to_json(found.room, generator=found.generator, report=found.routes)
            )
        return str(found.room) + "\n"
    if fmt == "json":
        return format_json(
            level_to_json(found.level, generator=found.generator, report=found.analysis)
        )
    return str(found.level) + "\n"


def make(
    made: Plan,
    output: LevelOutput = LevelOutput(),
    *,
    dask: str | None = None,
    on_progress: OnProgress = no_progress,
    cancel: CancelToken | None = None,
) -> Made:
    """Design every level of the plan, each verified, and write them where ``output`` says (a
    pack's files as each level arrives). ``dask`` runs the exhaustive search's shards, or a pack's
    levels, on a cluster. Progress: one step per level, the label saying the level's stage and
    its best so far. DesignFailed when a level cannot be made; ``Cancelled`` when ``cancel`` ends
    the work."""
    from designer.formats import output as files
    from designer.search.packs import design_pack, designed_on_cluster
    from designer.search.result import DesignFailed

    targets = check(made, output)
    file = None if output.file == "-" else output.file  # standard output, as for every reader's "-"
    designs: list = []
    with ExitStack() as stack:
        executor = None
        if dask is not None:
            from designer.search.executor import open_executor

            executor = open_executor(dask, made.job.workers, cancel)
            stack.callback(executor.close)
        if output.folder is not None:
            stack.enter_context(files.folder(output.folder))
        count = made.count
        level_by_level = not designed_on_cluster(executor, count, made.job.method)
        # a step: a level done, here or on the cluster
        steps = Steps(on_progress, count, "designing")
        pack = design_pack(
            made.job.but(executor=executor, cancel=cancel),
            count,
            levels=[job.but(executor=executor, cancel=cancel) for job in made.jobs],
            progress_for=_level_progress(steps),
            on_cluster_level=steps.step,
            apart=True,
        )
        ordered = by_difficulty(made)
        try:
            for k, found in enumerate(pack):
                designs.append(found)
                if output.folder is not None and not ordered:
                    files.write(targets[k], level_text(found, output.fmt), force=output.force)
                if level_by_level:
                    steps.step()
        except DesignFailed:
            check_cancel(cancel)  # a search the cancel ended is no failure of the request
            raise
        if ordered:
            designs = ordered_by_difficulty(designs, made.job.request)
            for k, found in enumerate(designs):
                if output.folder is not None:
                    files.write(targets[k], level_text(found, output.fmt), force=output.force)
    check_cancel(cancel)
    if output.folder is None and file is not None:
        files.write(file, level_text(designs[0], output.fmt), force=output.force)
    text = level_text(designs[0], output.fmt) if output.folder is None and file is None else None
    return Made(designs, text)


def by_difficulty(made: Plan) -> bool:
    """Whether a pack is written ordered by predicted difficulty: a pack of one request for every
    level, of levels with one start and one goal, or a curve of predicted difficulty
    (``--curve-by difficulty``), so that it rises without a dip (a curve of stops keeps the order
    it asked for)."""
    request = made.job.request
    return made.count > 1 and (
        len({job.request for job in made.jobs}) == 1
        and request_kind(request).predicts_difficulty
        or all(job.request.difficulty is not None for job in made.jobs)
    )


def ordered_by_difficulty(designs: list, request: LayoutRequest) -> list:
    """The designs sorted by the model's predicted difficulty (``designer.analysis.player``, for
    the request's player; a level asked in predicted difficulty has it in its record's
    ``difficulty_felt`` already), the easiest first (ties: the order they were made in), each
    record keeping its difficulty.

    A curve of predicted difficulty keeps each level within 15% of its place's target too: the
    targets rise, so the bounds 0.85 t and 1.15 t of the places rise, and the k-th least of levels
    each within their own place's bounds is within the k-th place's (k of them are at most its
    upper bound, n - k + 1 at least its lower one). Each record keeps its own target.
    """
    from dataclasses import replace as copy

    from designer.analysis.player import play
    from designer.search.felt import player_of

    who = player_of(request)
    felt = [
        found.generator.difficulty_felt
        if found.generator.difficulty_felt is not None
        else play(found.level, who).difficulty
        for found in designs
    ]
    ranked = sorted(range(len(designs)), key=lambda k: (felt[k], k))
    return [
        copy(designs[k], generator=designs[k].generator.but(difficulty_felt=felt[k]))
        for k in ranked
    ]


def _level_progress(steps: Steps):
    """``progress_for(k)`` of ``design_pack``: level k's search state, reported as labels."""
    from designer.search.state import Progress

    def progress_for(index: int) -> Progress:
        def show(state: Progress) -> None:
            best = f", best {state.best_stops} stops" if state.best_stops is not None else ""
            rejected = f", {state.rejected} rejected" if state.rejected else ""
            steps.label(f"level {index + 1}: {state.phase}{best}{rejected}")

        return Progress(listeners=[show])

    return progress_for
