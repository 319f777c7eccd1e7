"""Studies: generators compared, the Pareto front, and records per rock count. Each reports one
step per run (``Update``), stops through its cancel token, checks its output paths before any
work and writes them whole."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from designer.core.control import CancelToken, OnProgress, Steps, no_progress
from designer.core.errors import DesignerError, RequestNotMet
from designer.core.limits import MAX_SEED, seconds, whole
from designer.core.request import LayoutRequest
from designer.core.request_kinds import request_kind


def check_plot(plot_file: str | None, force: bool) -> None:
    """Before any work: ``plot_file`` (a PNG) can be written, and the [plot] extra is installed."""
    if plot_file is not None:
        from designer.core.extras import need
        from designer.formats import output

        output.check_file(plot_file, force=force, option="--plot", suffixes=(".png",))
        need("matplotlib", "plot")


def compare(
    request: LayoutRequest,
    targets: list[int],
    seeds: list[int],
    budget: float,
    methods: tuple[str, ...],
    *,
    workers: int | None = None,
    keep_levels: bool = False,
    plot_file: str | None = None,
    force: bool = False,
    on_progress: OnProgress = no_progress,
    cancel: CancelToken | None = None,
) -> dict:
    """Run ``methods`` side by side on ``request`` at each target and seed, ``budget`` seconds
    each (``designer.studies.compare``): the result as a plain dict; with ``plot_file``, a PNG of
    time to a level against K."""
    from designer.formats import output
    from designer.search.validation import validate
    from designer.studies import compare as comparison

    unknown = [m for m in methods if m not in comparison.METHODS]
    if unknown or not methods:
        raise DesignerError(
            f"unknown method {unknown[0] if unknown else '(none)'}: "
            f"choose from {', '.join(comparison.METHODS)}"
        )
    validate(request)
    seconds(budget, "--budget")
    for seed in (min(seeds, default=0), max(seeds, default=0)):
        whole(seed, "--seeds", 0, MAX_SEED)
    check_plot(plot_file, force)
    steps = Steps(on_progress, len(targets) * len(seeds) * len(methods), "designing")
    result = comparison.compare(
        request,
        targets,
        seeds,
        budget,
        methods,
        workers=workers,
        keep_levels=keep_levels,
        on_run=steps.step,
        cancel=cancel,
    )
    if plot_file is not None:
        buffer = io.BytesIO()
        comparison.plot(result, buffer)
        output.write(plot_file, buffer.getvalue(), force=force)
    return result


@dataclass(frozen=True)
class FrontMade:
    """The front's levels (best options first at each length) and its JSON form."""

    front: list
    as_json: dict


def pareto(
    request: LayoutRequest,
    time_limit: float,
    *,
    seed: int = 0,
    workers: int | None = None,
    out: str | None = None,
    plot_file: str | None = None,
    force: bool = False,
    dask: str | None = None,
    on_progress: OnProgress = no_progress,
    cancel: CancelToken | None = None,
    axis: str = "options",
) -> FrontMade:
    """The Pareto front over (min stops, options along the solution) in ``request``'s layout
    space (``designer.studies.pareto``), within ``time_limit`` seconds for the whole (plot
    included): with ``out``, level-NNN.txt and front.json written there; with ``plot_file``,
    the front drawn over random generation and the repair generator. RequestNotMet when no
    level is found in the time."""
    from designer.formats import output
    from designer.formats.level_json import level_to_json
    from designer.search.validation import validate
    from designer.studies import pareto as front_search

    validate(request)
    if axis not in ("options", "difficulty"):
        raise DesignerError(f"--axis is options or difficulty, not {axis!r}")
    # a front of (min stops, options) is one start and goal's: a room has one per route
    if not request_kind(request).fronts:
        raise DesignerError(
            "pareto draws the front of levels with one start and one goal; a template with doors "
            "(a room) is designed with make (--maximize-choices counts every route)"
        )
    seconds(time_limit, "--time-limit")
    whole(seed, "--seed", 0, MAX_SEED)
    check_plot(plot_file, force)
    if out is not None:
        names = [f"level-{k + 1:03d}.txt" for k in range(front_search.most_runs(time_limit))] + [
            "front.json"
        ]
        output.check_folder(out, names, force=force)
    cloud_seconds = (
        min(front_search.CLOUD_MAX_SECONDS, front_search.CLOUD_SHARE * time_limit)
        if plot_file
        else 0.0
    )
    with ExitStack() as stack:
        executor = None
        if dask is not None:
            from designer.search.executor import open_executor

            executor = open_executor(dask, workers, cancel)
            stack.callback(executor.close)
        steps = Steps(on_progress, front_search.most_runs(time_limit), "pareto")
        result = front_search.pareto(
            request,
            time_limit - cloud_seconds,
            seed=seed,
            workers=workers,
            executor=executor,
            on_run=steps.step,
            cancel=cancel,
            axis=axis,
        )
    front = result.levels
    if not front:
        raise RequestNotMet(
            f"time limit reached: no strong reversible level found in {time_limit:g} s"
        )
    designs = [p.design for p in front]
    assert all(design is not None for design in designs)  # a point of the front is a verified level
    as_obj = {
        "axis": axis,
        "front": [
            {
                "min_stops": p.min_stops,
                "options": p.options,
                "difficulty": p.difficulty,
                "level": level_to_json(
                    design.level, generator=design.generator, report=design.analysis
                ),
            }
            for p, design in zip(front, designs)
            if design is not None
        ],
    }
    if out is not None:
        with output.folder(out):
            for k, design in enumerate(designs):
                assert design is not None
                output.write(
                    Path(out) / f"level-{k + 1:03d}.txt", str(design.level) + "\n", force=force
                )
            output.write(Path(out) / "front.json", json.dumps(as_obj, indent=1) + "\n", force=force)
    if plot_file is not None:
        cloud = front_search.clouds(request, cloud_seconds, seed=seed)
        buffer = io.BytesIO()
        front_search.plot(
            result,
            cloud,
            buffer,
            f"{request.height}x{request.width}: the front over the generators",
        )
        output.write(plot_file, buffer.getvalue(), force=force)
    return FrontMade(front, as_obj)


@dataclass(frozen=True)
class RecordsMade:
    """The records, one per rock count, as a Markdown table and as JSON."""

    records: list
    table: str
    as_json: dict


def records(
    height: int,
    width: int,
    frame: bool,
    counts: list[int],
    time_limit: float,
    *,
    seed: int = 0,
    workers: int | None = None,
    out: str | None = None,
    checkpoint: str | None = None,
    dask: str | None = None,
    force: bool = False,
    on_progress: OnProgress = no_progress,
    cancel: CancelToken | None = None,
    on_note: Callable[[str], None] | None = None,
) -> RecordsMade:
    """The longest strong, reversible level for each rock count in ``counts``, proven optimal
    where possible (``designer.studies.records``), resumable from ``checkpoint``; with ``out``,
    records.md, records.json and rocks-NN.txt written there. ``on_note`` hears, before any work,
    that a checkpoint not signed by this user has its proofs and progress redone."""
    from designer.formats import output
    from designer.search.executor import open_executor
    from designer.search.validation import validate
    from designer.studies import checkpoint as saved
    from designer.studies import records as rec

    validate(saved.record_request(height, width, frame, counts[-1]))
    seconds(time_limit, "--time-limit")
    whole(seed, "--seed", 0, MAX_SEED)
    names = ["records.md", "records.json"] + [f"rocks-{r:02d}.txt" for r in counts]
    targets = output.check_folder(out, names, force=force) if out is not None else None
    if checkpoint is not None:
        output.check_file(checkpoint, force=True, option="--checkpoint")
        kept = os.path.abspath(checkpoint)
        if (
            out is not None
            and targets is not None
            and kept in {os.path.abspath(out), *(os.path.abspath(t) for t in targets)}
        ):
            raise DesignerError(
                f"--checkpoint {checkpoint} is --out {out} or a file the run writes there: "
                "give the checkpoint a path of its own"
            )
    executor = open_executor(dask, workers, cancel)
    try:
        steps = Steps(on_progress, len(counts), "records")
        found = rec.records(
            height,
            width,
            frame,
            counts,
            time_limit,
            seed=seed,
            workers=workers,
            executor=executor,
            checkpoint_path=Path(checkpoint) if checkpoint else None,
            on_record=steps.step,
            on_phase=lambda rocks, name: steps.label(f"{rocks} rocks: {name}"),
            cancel=cancel,
            on_note=on_note,
        )
    finally:
        executor.close()
    table = rec.markdown_table(height, width, frame, found)
    as_obj = rec.records_json(found)
    if out is not None and targets is not None:
        with output.folder(out):
            output.write(targets[0], table, force=force)
            output.write(targets[1], json.dumps(as_obj, indent=2) + "\n", force=force)
            for path, one in zip(targets[2:], found):
                if one.level is not None:
                    output.write(path, str(one.level) + "\n", force=force)
    return RecordsMade(found, table, as_obj)
