"""``designer compare``, ``pareto`` and ``records``: the studies, their options parsed into
``designer.ops.studies``'s values, their figures printed."""

from __future__ import annotations

import io
import json
import sys

import typer

from designer.cli.flags import asked
from designer.cli.make_asks import PlayerOption
from designer.cli.progress import progress_bar
from designer.cli.shell import (
    STUDIES,
    Method,
    app,
    bounded,
    cancel_token,
    echo,
    examples,
    finite,
    machine_workers,
    max_rocks_option,
    no_frame_option,
    note,
    parse_size,
    progress_shown,
    seed_option,
    size_option,
    template_option,
)
from designer.core.errors import DesignerError
from designer.core.limits import MAX_RUNS


def parse_targets(text: str) -> list[int]:
    """'10,15,20' -> [10, 15, 20]."""
    try:
        targets = [int(part) for part in text.split(",")]
    except ValueError:
        raise DesignerError(
            f"--min-stops {text!r} is not a number or a comma-separated list of numbers"
        ) from None
    if any(t < 1 for t in targets):
        raise DesignerError("--min-stops must be at least 1")
    return targets


@app.command(
    rich_help_panel=STUDIES,
    epilog=examples(
        "designer compare --min-stops 10,20,30 --budget 10 --seeds 3",
        "designer compare --methods auto,random --json",
    ),
)
def compare(
    ctx: typer.Context,
    min_stops: str = typer.Option(
        "20", "--min-stops", metavar="K[,K...]", help="Target K, or a list: 10,15,20,25,30."
    ),
    budget: float = typer.Option(
        20.0,
        "--budget",
        min=0.1,
        metavar="SECONDS",
        callback=lambda v: finite(v, "--budget"),
        help="Seconds per method per level.",
    ),
    seeds: int = typer.Option(
        5,
        "--seeds",
        min=1,
        metavar="N",
        callback=bounded("--seeds", 1, MAX_RUNS),
        help="Seeds 1..N for every method and target.",
    ),
    methods: str = typer.Option(
        ",".join(m.value for m in Method),
        "--methods",
        metavar="M,M...",
        help="Comma-separated methods (default: all of them).",
    ),
    size: str = typer.Option("12x12", metavar="HxW", help="Grid size HxW (with a frame)."),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        metavar="N",
        callback=machine_workers,
        help="CP-SAT threads (default: all cores).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON."),
    levels: bool = typer.Option(
        False, "--levels", help="Include every verified level in the JSON."
    ),
    plot_file: str | None = typer.Option(
        None, "--plot", metavar="FILE.png", help="Write a PNG of time to a level against K."
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing plot file."),
) -> None:
    """Run generators side by side on the same requests, budget and verifier."""
    from designer.core.request import LayoutRequest
    from designer.ops import studies
    from designer.studies.compare import TABLE_HEADER, table_rows

    h, w = parse_size(size)
    targets = parse_targets(min_stops)
    chosen = tuple(m.strip() for m in methods.split(",") if m.strip())
    with progress_bar(progress_shown()) as on_progress:
        result = studies.compare(
            LayoutRequest(height=h, width=w, min_stops=max(targets)),
            targets,
            list(range(1, seeds + 1)),
            budget,
            chosen,
            workers=workers,
            keep_levels=levels,
            plot_file=plot_file,
            force=force,
            on_progress=on_progress,
            cancel=cancel_token(ctx),
        )
    if as_json:
        echo(json.dumps(result))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{h}x{w}, budget {budget:g} s per level, seeds 1..{seeds}")
    for column in TABLE_HEADER:
        table.add_column(column, justify="left" if column in ("K", "method") else "right")
    for row in table_rows(result):
        table.add_row(*row)
    text = io.StringIO()
    console = Console(file=text, width=Console().width, force_terminal=sys.stdout.isatty())
    console.print(table)
    echo(text.getvalue(), nl=False)


@app.command(
    rich_help_panel=STUDIES,
    epilog=examples(
        "designer pareto --size 9x9 --time-limit 60 --out front",
        "designer pareto --time-limit 120 --plot front.png",
    ),
)
def pareto(
    ctx: typer.Context,
    size: str | None = size_option(),
    template: str | None = template_option(),
    no_frame: bool = no_frame_option(),
    max_rocks: int | None = max_rocks_option(),
    snow: int | None = typer.Option(
        None, "--snow", min=0, metavar="N", help="Exactly N snow tiles."
    ),
    start: str | None = typer.Option(None, metavar="R,C", help="Pin the start at R,C."),
    goal: str | None = typer.Option(None, metavar="R,C", help="Pin the goal at R,C."),
    time_limit: float = typer.Option(
        ...,
        "--time-limit",
        min=1.0,
        metavar="SECONDS",
        callback=lambda v: finite(v, "--time-limit"),
        help="Seconds for the whole front (and the plot).",
    ),
    seed: int = seed_option(),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        metavar="N",
        callback=machine_workers,
        help="Threads per run (default: all cores).",
    ),
    out: str | None = typer.Option(
        None,
        "--out",
        metavar="DIR",
        help="Write level-NNN.txt (by min stops) and front.json to DIR.",
    ),
    plot_file: str | None = typer.Option(
        None,
        "--plot",
        metavar="FILE.png",
        help="Draw the front over random generation and the repair generator.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the front as JSON."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
    dask: str | None = typer.Option(
        None,
        "--dask",
        metavar="ADDR",
        help="Run the bands on dask: 'local' (a LocalCluster) or tcp://HOST:PORT.",
    ),
    axis: str = typer.Option(
        "options",
        "--axis",
        metavar="options|difficulty",
        help="The second measure: options along the solution, or the model's predicted difficulty.",
    ),
    player: PlayerOption = None,
) -> None:
    """The Pareto front over min stops and options along the solution (or predicted difficulty).

    Strong, reversible levels, none beaten by another in both."""
    from designer.ops import studies
    from designer.ops.asks import request_of

    request = request_of(asked(ctx))  # the grid's flags, as make reads them
    with progress_bar(progress_shown()) as on_progress:
        made = studies.pareto(
            request,
            time_limit,
            seed=seed,
            workers=workers,
            out=out,
            plot_file=plot_file,
            force=force,
            dask=dask,
            on_progress=on_progress,
            cancel=cancel_token(ctx),
            axis=axis,
        )
    if as_json:
        echo(json.dumps(made.as_json))
    else:
        lines = [
            "| min stops | options | per stop | rail stops | solutions | predicted difficulty |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for point in made.front:
            a = point.design.analysis
            lines.append(
                f"| {a.min_stops} | {a.options} | {a.per_stop:.2f} | {a.rail_stops} | {a.solutions} | "
                f"{point.difficulty:g} |"
            )
        echo("\n".join(lines))
    count = len(made.front)
    where = f"; wrote {count} levels and front.json to {out}" if out else ""
    note(f"front: {count} level{'s' if count != 1 else ''}, none dominated{where}")
