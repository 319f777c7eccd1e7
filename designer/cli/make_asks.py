"""What ``designer make`` is asked for, each option declared once as the type of its parameter: the
stops, the difficulty, items, coins, teleports, choices, the player, and a pack's count and curve.
The grid, the rooms, the search and the output are ``designer.cli.make_options``."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from designer.cli.shell import (
    ASK,
    PACKS,
    bounded,
)
from designer.core.limits import MAX_LEVELS


def _difficulty_presets() -> dict:
    from designer.search.difficulty import PRESETS

    return PRESETS


#: The presets of ``designer.search.difficulty``, as the option's choices and its help.
Difficulty = Enum("Difficulty", {name: name for name in _difficulty_presets()}, type=str)  # type: ignore[misc]  # members from the presets


DIFFICULTY_HELP = (
    "A preset: " + "; ".join(f"{p.name}, {p.summary}" for p in _difficulty_presets().values()) + "."
)


class CurveBy(str, Enum):
    stops = "stops"
    difficulty = "difficulty"


MinStopsOption = Annotated[
    int | None,
    typer.Option(
        "--min-stops",
        metavar="K",
        rich_help_panel=ASK,
        help="At least K min stops (default 15; 1 with --maximize).",
    ),
]


MaxStopsOption = Annotated[
    int | None,
    typer.Option(
        "--max-stops",
        metavar="M",
        rich_help_panel=ASK,
        help="At most M min stops: with --min-stops, a band.",
    ),
]


MaximizeOption = Annotated[
    bool,
    typer.Option(
        "--maximize", rich_help_panel=ASK, help="Raise min stops as far as the time limit allows."
    ),
]


DifficultyOption = Annotated[
    Difficulty | None,
    typer.Option("--difficulty", case_sensitive=False, rich_help_panel=ASK, help=DIFFICULTY_HELP),
]


ItemsOption = Annotated[
    int | None,
    typer.Option(
        "--items",
        min=0,
        metavar="N",
        rich_help_panel=ASK,
        help="Place N items (*) to take before the goal opens; each one matters.",
    ),
]


CoinsOption = Annotated[
    int | None,
    typer.Option(
        "--coins",
        min=0,
        metavar="N",
        rich_help_panel=ASK,
        help="Place N coins ($): optional, each worth taking (the full clear is "
        "shorter without it), none to be lost for good.",
    ),
]


FullClearOption = Annotated[
    str | None,
    typer.Option(
        "--full-clear",
        metavar="K[..M]",
        rich_help_panel=ASK,
        help="With --coins: the full clear (every coin, then the exit) "
        "between K and M moves (at least K without ..M).",
    ),
]


TeleportsOption = Annotated[
    int | None,
    typer.Option(
        "--teleports",
        min=0,
        metavar="N",
        rich_help_panel=ASK,
        help="Place N teleport pairs (portals, each the other's target); each pair matters.",
    ),
]


MinChoicesOption = Annotated[
    int | None,
    typer.Option(
        "--min-choices",
        metavar="N",
        rich_help_panel=ASK,
        help="At least N options (other moves open) along the printed solution.",
    ),
]


MaximizeChoicesOption = Annotated[
    bool,
    typer.Option(
        "--maximize-choices",
        rich_help_panel=ASK,
        help="Keep every other constraint and spend the time limit raising the "
        "options along the solution.",
    ),
]


UniqueOption = Annotated[
    bool,
    typer.Option("--unique", rich_help_panel=ASK, help="Exactly one fewest-moves solution."),
]


CurveByOption = Annotated[
    CurveBy,
    typer.Option(
        "--curve-by",
        case_sensitive=False,
        rich_help_panel=PACKS,
        help="What --curve A..B and --difficulty ask: min stops, or the model's predicted "
        "difficulty (1-10, each level within 15%; --min-stops a floor, default 1).",
    ),
]


PlayerOption = Annotated[
    str | None,
    typer.Option(
        "--player",
        metavar="FILE",
        rich_help_panel=ASK,
        help="The model's player for predicted difficulty (a player file from "
        "designer playtest --fit).",
    ),
]


FirstOption = Annotated[
    bool,
    typer.Option(
        "--first",
        rich_help_panel=ASK,
        help="Return the first level that meets the request (by default the designer then "
        "spends up to a second raising the choices at each stop).",
    ),
]


TidyOption = Annotated[
    bool,
    typer.Option(
        "--tidy",
        rich_help_panel=ASK,
        help="Every rock and snow tile the designer places is needed.",
    ),
]


CountOption = Annotated[
    int,
    typer.Option(
        "--count",
        min=1,
        metavar="N",
        callback=bounded("--count", 1, MAX_LEVELS),
        rich_help_panel=PACKS,
        help="How many distinct levels (with --out).",
    ),
]


CurveOption = Annotated[
    str | None,
    typer.Option(
        "--curve",
        metavar="A..B",
        rich_help_panel=PACKS,
        help="A pack (with --count and --out) whose min stops rise evenly from A "
        "to B, each level within one stop of its step.",
    ),
]


OutOption = Annotated[
    str | None,
    typer.Option(
        "--out",
        metavar="DIR",
        rich_help_panel=PACKS,
        help="Folder for a pack of levels (with --count).",
    ),
]
