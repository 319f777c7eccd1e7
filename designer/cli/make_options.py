"""The options of ``designer make`` for its grid, its rooms, its search and its output, each declared
once as the type of its parameter (its flag, its help, its panel and its check), so that the
command reads as the request it builds (``designer.cli.make``); what it is asked for is
``designer.cli.make_asks``."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from designer.cli.shell import (
    GRID,
    OUTPUT,
    ROOMS,
    SEARCH,
    Method,
    bounded,
    finite,
    machine_workers,
)
from designer.core.limits import MAX_SEED


class Format(str, Enum):
    ascii = "ascii"
    json = "json"


def _method_help() -> str:
    """--method's help, from the registry (``designer.search.methods``): every method, once."""
    from designer.search.methods import METHODS

    return (
        "; ".join(
            f"{m.name}{' (default)' if m.name == 'auto' else ''}: {m.summary}"
            for m in METHODS.values()
        )
        + "."
    )


SnowOption = Annotated[
    int | None,
    typer.Option(
        "--snow",
        min=0,
        metavar="N",
        rich_help_panel=GRID,
        help="Exactly N snow tiles (default 0, or the template's own).",
    ),
]
StartOption = Annotated[
    str | None,
    typer.Option(
        metavar="R,C",
        rich_help_panel=GRID,
        help="Pin the start at row R, column C (default: chosen on the bottom edge).",
    ),
]
GoalOption = Annotated[
    str | None,
    typer.Option(
        metavar="R,C",
        rich_help_panel=GRID,
        help="Pin the goal at row R, column C (default: chosen on the top edge).",
    ),
]
DoorOption = Annotated[
    list[str] | None,
    typer.Option(
        "--door",
        metavar="R,C",
        rich_help_panel=ROOMS,
        help="A room's door at row R, column C (repeatable: doors 1, 2, ... in order).",
    ),
]
RouteOption = Annotated[
    list[str] | None,
    typer.Option(
        "--route",
        metavar="A:B[=K[..M]]",
        rich_help_panel=ROOMS,
        help="A route of the room from door A to door B (repeatable; default: "
        "every pair), with its own floor K or band K..M.",
    ),
]
MethodOption = Annotated[
    Method | None,
    typer.Option(
        "--method",
        case_sensitive=False,
        metavar="METHOD",
        rich_help_panel=SEARCH,
        help=_method_help(),
    ),
]
SeedOption = Annotated[
    int | None,
    typer.Option(
        min=0,
        metavar="N",
        callback=bounded("--seed", 0, MAX_SEED),
        rich_help_panel=SEARCH,
        help="Seed of every random choice: the same seed gives the same level (default 0).",
    ),
]
TimeLimitOption = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        metavar="SECONDS",
        rich_help_panel=SEARCH,
        callback=lambda v: finite(v, "--time-limit"),
        help="Seconds to search, more than 0 (per level; default 60).",
    ),
]
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        metavar="N",
        callback=machine_workers,
        rich_help_panel=SEARCH,
        help="Solver threads (default: all cores).",
    ),
]
DaskOption = Annotated[
    str | None,
    typer.Option(
        "--dask",
        metavar="ADDR",
        rich_help_panel=SEARCH,
        help="Run the exhaustive search's shards on dask: 'local' (a LocalCluster) "
        "or tcp://HOST:PORT.",
    ),
]
FromFileOption = Annotated[
    str | None,
    typer.Option(
        "--from",
        metavar="LEVEL.json",
        rich_help_panel=SEARCH,
        help="Run a designed level's request again (its generator record: the "
        "request, method, seed and time limit); --time-limit and --workers "
        "may override the record's.",
    ),
]
FmtOption = Annotated[
    Format,
    typer.Option(
        "--format",
        case_sensitive=False,
        rich_help_panel=OUTPUT,
        help="Canonical ASCII or the JSON level.",
    ),
]
OutputFileOption = Annotated[
    str | None,
    typer.Option(
        "-o",
        "--output",
        metavar="FILE",
        rich_help_panel=OUTPUT,
        help="Write the level to FILE instead of standard output.",
    ),
]
ForceOption = Annotated[
    bool,
    typer.Option("--force", rich_help_panel=OUTPUT, help="Overwrite existing output files."),
]
