"""``designer solve`` and ``designer analyze``: a level read, its solution or its analysis printed."""

from __future__ import annotations

import json
from enum import Enum

import typer

from designer.cli.shell import INSPECT, LEVEL_HELP, app, echo, examples, finite
from designer.cli.solved import full_answered, full_words, print_cave, print_room
from designer.core.budget import command_budget
from designer.core.errors import RequestNotMet


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
    from designer.ops.kinds.cave import CaveSolved
    from designer.ops.kinds.room import RoomSolved

    if isinstance(solved, RoomSolved):
        return print_room(solved, as_json)
    if isinstance(solved, CaveSolved):
        return print_cave(solved, as_json)
    solution = solved.solution
    full = solved.full
    if as_json:
        payload = {"solvable": True, **solution.to_dict()} if solution else {"solvable": False}
        if full is not None:
            payload["full_clear"] = full.to_dict()
        echo(json.dumps(payload))
    elif solution:
        echo(f"{solution.moves}\nstops: {solution.stops}  distance: {solution.distance}")
        if solution.taken:
            echo(
                "items: "
                + ", ".join(f"{k + 1} at move {solution.taken[k]}" for k in solution.order())
            )
    if full is not None and not as_json:
        echo(full_words(solved.level, full))
    full_answered(full)
    if solution is None:
        raise RequestNotMet("unsolvable: the goal cannot be reached from the start")


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
    from designer.export.report import coin_lines, player_lines, report, room_report
    from designer.ops import levels

    analysed = levels.analyze(
        level_file,
        routes=_routes(route),
        player=read_player(player),
        budget=command_budget(time_limit),
    )
    from designer.ops.kinds.cave import CaveAnalysed
    from designer.ops.kinds.room import RoomAnalysed

    if isinstance(analysed, RoomAnalysed):
        fulls = analysed.full or {}
        if as_json:
            echo(json.dumps(analysed.to_dict()))
        else:
            head, _, rows = room_report(analysed.analysis).partition("\n\n")
            echo(
                "\n".join(
                    [head, *(full_words(analysed.room, full, name) for name, full in fulls.items())]
                )
                + "\n\n"
                + rows
            )
    elif isinstance(analysed, CaveAnalysed):
        from designer.export.report import cave_report

        if as_json:
            echo(json.dumps(analysed.to_dict()))
        else:
            extra = player_lines(analysed.player) if analysed.player is not None else []
            if analysed.full is not None:
                extra.append(full_words(analysed.cave, analysed.full))
            echo("\n".join([cave_report(analysed.analysis), *extra]))
    elif as_json:
        echo(json.dumps(analysed.to_dict()))
    else:
        text = report(analysed.level, analysed.analysis)
        extra = coin_lines(analysed.level, analysed.coins) if analysed.coins is not None else []
        if analysed.player is not None or analysed.shape is not None:
            extra += player_lines(analysed.player, analysed.shape)
        extra += [f"{what}: {why}" for what, why in analysed.skipped]
        if extra:
            head, _, rest = text.partition("\n\n")
            text = "\n".join([head, *extra]) + "\n\n" + rest
        echo(text)


def read_player(path: str | None):
    """The player of ``--player FILE``, or None (the default)."""
    if path is None:
        return None
    from designer.formats.player_file import read_player as read

    return read(path)
