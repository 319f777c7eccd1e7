"""``designer solve`` and ``designer analyze``: a level read, its solution or its analysis printed."""

from __future__ import annotations

import json
from enum import Enum

import typer

from designer.core.errors import RequestNotMet
from designer.cli.shell import LEVEL_HELP, app, echo


class By(str, Enum):
    moves = "moves"
    distance = "distance"


@app.command()
def solve(
    level_file: str = typer.Argument(..., metavar="LEVEL", help=LEVEL_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the solution as JSON."),
    by: By = typer.Option(By.moves, "--by", help="Fewest moves (ties: least distance) or least distance."),
) -> None:
    """Print the optimal solution of a level (status 1 if it is unsolvable)."""
    from designer.ops import levels

    solution = levels.solve(level_file, by=by.value).solution
    if as_json:
        payload = {"solvable": True, **solution.to_dict()} if solution else {"solvable": False}
        echo(json.dumps(payload))
    elif solution:
        echo(f"{solution.moves}\nstops: {solution.stops}  distance: {solution.distance}")
    if solution is None:
        raise RequestNotMet("unsolvable: the goal cannot be reached from the start")


@app.command()
def analyze(
    level_file: str = typer.Argument(..., metavar="LEVEL", help=LEVEL_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the level's analysis object as JSON."),
) -> None:
    """Solvability class, reversibility, min stops, SCCs, traps and difficulty figures."""
    from designer.export.report import report
    from designer.ops import levels

    analysed = levels.analyze(level_file)
    if as_json:
        echo(json.dumps(analysed.analysis.to_dict()))
    else:
        echo(report(analysed.level, analysed.analysis))
