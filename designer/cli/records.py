"""``designer records``: the longest strong, reversible level for each rock count, proven optimal where
possible, resumable from a checkpoint (``designer.ops.studies.records``)."""

from __future__ import annotations

import json

import typer

from designer.cli.progress import progress_bar
from designer.cli.shell import (
    STUDIES,
    app,
    cancel_token,
    echo,
    examples,
    finite,
    machine_workers,
    no_frame_option,
    note,
    parse_size,
    progress_shown,
    seed_option,
)
from designer.core.bands import Band
from designer.core.errors import DesignerError


def parse_rocks(text: str) -> list[int]:
    """``A..B`` (or one count ``A``) as the list of rock counts."""
    try:
        band = Band.parse(text)
        first, last = band.low, band.low if band.high is None else band.high
    except ValueError:
        raise DesignerError(f"--rocks takes A..B or A (rock counts), not {text!r}") from None
    if first < 0 or last < first or last > 64:
        raise DesignerError(f"--rocks {text}: need 0 <= A <= B <= 64")
    return list(range(first, last + 1))


@app.command(
    rich_help_panel=STUDIES,
    epilog=examples(
        "designer records --size 6x7 --rocks 1..5",
        "designer records --size 8x8 --dask local --checkpoint run.json",
    ),
)
def records(
    ctx: typer.Context,
    size: str = typer.Option("6x7", metavar="HxW", help="Grid size HxW."),
    no_frame: bool = no_frame_option(),
    rocks: str = typer.Option(
        "1..5", "--rocks", metavar="A..B", help="Rock counts to find records for."
    ),
    time_limit: float = typer.Option(
        60.0,
        "--time-limit",
        min=0.1,
        metavar="SECONDS",
        callback=lambda v: finite(v, "--time-limit"),
        help="Seconds per rock count.",
    ),
    seed: int = seed_option(),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        metavar="N",
        callback=machine_workers,
        help="Threads or dask workers (default: all cores).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the records as JSON."),
    out: str | None = typer.Option(
        None, "--out", metavar="DIR", help="Write records.md, records.json and rocks-NN.txt to DIR."
    ),
    checkpoint: str | None = typer.Option(
        None,
        "--checkpoint",
        metavar="FILE",
        help="Keep progress in FILE; a stopped run resumes from it.",
    ),
    dask: str | None = typer.Option(
        None,
        "--dask",
        metavar="ADDR",
        help="Run the proof's shards on dask: 'local' (a LocalCluster) or tcp://HOST:PORT.",
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files in --out."),
) -> None:
    """The longest strong, reversible level for each rock count, proven optimal where possible."""
    from designer.ops import studies

    h, w = parse_size(size)
    counts = parse_rocks(rocks)
    with progress_bar(progress_shown()) as on_progress:
        made = studies.records(
            h,
            w,
            not no_frame,
            counts,
            time_limit,
            seed=seed,
            workers=workers,
            out=out,
            checkpoint=checkpoint,
            dask=dask,
            force=force,
            on_progress=on_progress,
            cancel=cancel_token(ctx),
            on_note=lambda text: note(f"designer: note: {text}"),
        )
    echo(json.dumps(made.as_json, indent=2) + "\n" if as_json else made.table, nl=False)
