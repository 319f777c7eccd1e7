"""``designer bench``: benchmarks that print figures (whole-process times, medians)."""

from __future__ import annotations

import json

import typer

from designer.cli.shell import bench_app, bounded, echo, examples, framed_size
from designer.core.errors import DesignerError
from designer.core.limits import MAX_RUNS, MAX_SAMPLES, MAX_SEED

#: Options of make that bench make sets itself (a level per seed, read as JSON from its output).
BENCH_MAKE_SETS = ("-o", "--output", "--out", "--format", "--seed", "--count", "--from")


@bench_app.command(
    "caves", epilog=examples("designer bench caves", "designer bench caves --seeds 1,2,3 --no-dask")
)
def bench_caves_cmd(
    seeds: str = typer.Option(
        "1,2,3", "--seeds", metavar="S,S,...", help="A run per seed (the median is reported)."
    ),
    dask: bool = typer.Option(
        True,
        "--dask/--no-dask",
        help="Also design 16 rooms on a LocalCluster and in process, and compare the caves.",
    ),
) -> None:
    """Whole-process times of 'designer cave' on the figures of caves, each cave verified again."""
    from designer.studies.bench import bench_caves

    echo(json.dumps(bench_caves(_seeds(seeds), dask), indent=2))


@bench_app.command(
    "game",
    epilog=examples("designer bench game", "designer bench game --seeds 0,1 --plan plan.toml"),
)
def bench_game_cmd(
    seeds: str = typer.Option(
        "0", "--seeds", metavar="S,S,...", help="A run per seed (the median is reported)."
    ),
    plan: str | None = typer.Option(
        None, "--plan", metavar="PLAN", help="A game plan (default: designer game's own)."
    ),
) -> None:
    """Whole-process times of 'designer game' and the figures of each game; the first seed made
    again and compared file for file."""
    from designer.studies.bench_game import bench_game

    echo(json.dumps(bench_game(_seeds(seeds), plan), indent=2))


def _seeds(seeds: str) -> list[int]:
    """``--seeds S,S,...`` read: one line for anything else."""
    try:
        chosen = [int(seed) for seed in seeds.split(",")]
    except ValueError:
        raise DesignerError(f"--seeds takes whole numbers, such as 1,2,3, not {seeds!r}") from None
    if not chosen or len(chosen) > MAX_RUNS or not all(0 <= seed <= MAX_SEED for seed in chosen):
        raise DesignerError(f"--seeds takes 1 to {MAX_RUNS} seeds from 0 to {MAX_SEED}")
    return chosen


@bench_app.command("classify")
def bench_classify_cmd(
    count: int = typer.Option(
        10_000,
        metavar="N",
        min=1,
        callback=bounded("--count", 1, MAX_SAMPLES),
        help="How many random levels.",
    ),
    size: str = typer.Option("12x12", metavar="HxW", help="Level size HxW."),
    density: float = typer.Option(
        0.2, metavar="P", min=0.0, max=1.0, help="Probability of rock per interior cell."
    ),
    seed: int = typer.Option(
        0,
        metavar="N",
        min=0,
        callback=bounded("--seed", 0, MAX_SEED),
        help="Seed of the random levels.",
    ),
    repeats: int = typer.Option(
        5,
        metavar="N",
        min=1,
        callback=bounded("--repeats", 1, MAX_RUNS),
        help="Timed runs (the median is reported).",
    ),
) -> None:
    """Time classifying random framed levels (class, reversibility, min stops)."""
    from designer.studies.bench import bench_classify

    h, w = framed_size(size)
    echo(json.dumps(bench_classify(count, h, w, density, seed, repeats), indent=2))


@bench_app.command("analyze")
def bench_analyze_cmd(
    size: str = typer.Option("300x300", metavar="HxW", help="Level size HxW."),
    density: float = typer.Option(
        0.2, metavar="P", min=0.0, max=1.0, help="Probability of rock per interior cell."
    ),
    seed: int = typer.Option(
        0,
        metavar="N",
        min=0,
        callback=bounded("--seed", 0, MAX_SEED),
        help="Seed of the random level.",
    ),
    runs: int = typer.Option(
        5,
        metavar="N",
        min=1,
        callback=bounded("--runs", 1, MAX_RUNS),
        help="Timed runs (the median is reported).",
    ),
    as_json: bool = typer.Option(
        False, "--json", help="Time 'analyze --json' instead of the text report."
    ),
) -> None:
    """Whole-process time of 'designer analyze' on a random solvable level."""
    from designer.studies.bench import bench_analyze

    h, w = framed_size(size)
    echo(json.dumps(bench_analyze(h, w, density, seed, runs, as_json), indent=2))


@bench_app.command("studio")
def bench_studio_cmd(
    requests: int = typer.Option(
        200,
        "--requests",
        min=1,
        callback=bounded("--requests", 1, MAX_RUNS),
        help="How many live-analysis calls.",
    ),
    clients: int = typer.Option(20, "--clients", min=1, max=200, help="How many of them at once."),
    size: str = typer.Option("20x20", metavar="HxW", help="Level size HxW."),
    density: float = typer.Option(
        0.2, metavar="P", min=0.0, max=1.0, help="Probability of rock per interior cell."
    ),
    seed: int = typer.Option(
        0,
        metavar="N",
        min=0,
        callback=bounded("--seed", 0, MAX_SEED),
        help="Seed of the random level.",
    ),
) -> None:
    """The studio's live analysis under load: 'designer studio' started, and its live figures
    asked for by many clients at once, over HTTP (median, 95th percentile, slowest)."""
    from designer.core.extras import need
    from designer.studies.bench_studio import bench_studio

    need("starlette", "studio")
    h, w = framed_size(size)
    echo(json.dumps(bench_studio(requests, clients, h, w, density, seed), indent=2))


@bench_app.command("studio-page")
def bench_studio_page_cmd(
    size: str = typer.Option("20x20", metavar="HxW", help="Level size HxW."),
    items: int = typer.Option(0, "--items", min=0, max=9, help="Items on the level."),
    edits: int = typer.Option(30, "--edits", min=1, max=1000, help="How many single edits."),
    seed: int = typer.Option(
        0,
        metavar="N",
        min=0,
        callback=bounded("--seed", 0, MAX_SEED),
        help="Seed of the random level.",
    ),
    chromium: str = typer.Option(
        None,
        "--chromium",
        metavar="PATH",
        help="Chromium's executable (default: chromium on PATH).",
    ),
) -> None:
    """The studio's live figures where the user sits: click to figures on the page, in headless
    Chromium (median and slowest of single edits, and of a click after a drag over 10 cells)."""
    from designer.core.extras import need
    from designer.studies.bench_page import bench_studio_page

    need("starlette", "studio")
    h, w = framed_size(size)
    echo(json.dumps(bench_studio_page(h, w, items, edits, 0.2, seed, chromium), indent=2))


@bench_app.command(
    "make",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    epilog=examples(
        "designer bench make --seeds 5 -- --min-stops 25",
        "designer bench make --seeds 3 -- --method cpsat-ends --size 6x6 --min-stops 9",
    ),
)
def bench_make_cmd(
    ctx: typer.Context,
    seeds: int = typer.Option(
        5,
        "--seeds",
        min=1,
        callback=bounded("--seeds", 1, MAX_RUNS),
        help="Run seeds 1..N (the median is reported).",
    ),
) -> None:
    """Whole-process time of 'designer make ARGS' over seeds, each level verified again.

    Example: designer bench make --seeds 5 -- --min-stops 25
    """
    from designer.studies.bench import bench_make

    for arg in ctx.args:
        name = arg.split("=", 1)[0]
        if name in BENCH_MAKE_SETS:
            raise DesignerError(
                f"bench make: {name} is bench's own (it runs seeds 1..N and reads each level, "
                "as JSON, from standard output); leave it out"
            )
    echo(json.dumps(bench_make(list(ctx.args), list(range(1, seeds + 1))), indent=2))
