"""``designer solve`` and ``designer analyze``: a level read, its solution or its analysis printed."""

from __future__ import annotations

from enum import Enum

import typer

from designer.cli.analysed import ANALYSED
from designer.cli.shell import INSPECT, LEVEL_HELP, app, examples, finite
from designer.cli.solved import SOLVED
from designer.core.budget import command_budget


class By(str, Enum):
    moves = "moves"
    distance = "distance"


FULL_CLEAR_HELP = (
    "A level with coins: the most seconds its full clear is searched (all coins, then the exit)."
)
ANALYZE_LIMIT_HELP = (
    "The most seconds the whole analysis takes: the model's player and the structure when they fit "
    "in it, and with coins the full clear."
)
ROUTE_HELP = (
    "In a room with doors 1-9: the route A:B only (repeatable; default: every pair of doors)."
)


def _routes(texts: list[str] | None) -> list | None:
    from designer.core.room import parse_route

    return [parse_route(text) for text in texts] if texts else None


@app.command(
    rich_help_panel=INSPECT,
    epilog=examples(
        "designer solve level.json",
        "designer solve room.txt --route 1:3 --json",
        "designer solve cave.txt",
    ),
)
def solve(
    level_file: str = typer.Argument(..., metavar="LEVEL", help=LEVEL_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the solution as JSON."),
    by: By = typer.Option(
        By.moves,
        "--by",
        case_sensitive=False,
        metavar="moves|distance",
        help="Fewest moves (ties: least distance) or least distance.",
    ),
    route: list[str] | None = typer.Option(None, "--route", metavar="A:B", help=ROUTE_HELP),
    time_limit: float = typer.Option(
        10.0,
        "--time-limit",
        min=0.1,
        metavar="SECONDS",
        callback=lambda v: finite(v, "--time-limit"),
        help=FULL_CLEAR_HELP,
    ),
) -> None:
    """Print the optimal solution of a level (status 1 if it is unsolvable); with coins, its full clear."""
    from designer.ops import levels

    solved = levels.solve(
        level_file, by=by.value, routes=_routes(route), budget=command_budget(time_limit)
    )
    SOLVED[solved.kind](solved, as_json)  # each kind's answer printed as its own


PLAYER_HELP = (
    "The model's player: a player file from designer playtest --fit (default: the parameters fitted to "
    "glissade's levels)."
)


@app.command(
    rich_help_panel=INSPECT,
    epilog=examples(
        "designer analyze level.json",
        "designer analyze level.txt --json",
        "designer analyze room.json --route 1:2",
    ),
)
def analyze(
    level_file: str = typer.Argument(..., metavar="LEVEL", help=LEVEL_HELP),
    as_json: bool = typer.Option(
        False, "--json", help="Print the level's analysis object as JSON."
    ),
    route: list[str] | None = typer.Option(None, "--route", metavar="A:B", help=ROUTE_HELP),
    player: str | None = typer.Option(None, "--player", metavar="FILE", help=PLAYER_HELP),
    time_limit: float = typer.Option(
        10.0,
        "--time-limit",
        min=0.1,
        metavar="SECONDS",
        callback=lambda v: finite(v, "--time-limit"),
        help=ANALYZE_LIMIT_HELP,
    ),
) -> None:
    """Solvability class, reversibility, min stops, SCCs, traps, difficulty figures and what the
    model's player costs; with coins, the full clear and each coin's figures."""
    from designer.ops import levels

    analysed = levels.analyze(
        level_file,
        routes=_routes(route),
        player=read_player(player),
        budget=command_budget(time_limit),
    )
    ANALYSED[analysed.kind](analysed, as_json)  # each kind's analysis printed as its own


def read_player(path: str | None):
    """The player of ``--player FILE``, or None (the default)."""
    if path is None:
        return None
    from designer.formats.player_file import read_player as read

    return read(path)
