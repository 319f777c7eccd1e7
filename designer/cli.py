"""The ``designer`` command: a thin shell over the library.

Exit status: 0 success; 1 the request cannot be met (an unsolvable level for ``solve``);
2 bad input or usage, always as one line on standard error.
"""

from __future__ import annotations

import json
import sys
from enum import Enum

import typer

from designer.errors import DesignerError

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Design, solve and analyse sliding-ice puzzles.",
)
bench_app = typer.Typer(help="Benchmarks that print figures.")
app.add_typer(bench_app, name="bench")

LEVEL_HELP = "Level file (canonical ASCII, a dialect, or JSON), or - for standard input."


class By(str, Enum):
    moves = "moves"
    distance = "distance"


class RequestNotMet(Exception):
    """The request is valid but cannot be met: printed as one line, exit status 1."""


def parse_size(text: str) -> tuple[int, int]:
    """'12x12' -> (12, 12)."""
    try:
        h, w = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise DesignerError(f"size {text!r} is not of the form HxW, e.g. 12x12") from None
    if h < 1 or w < 1:
        raise DesignerError(f"size {text!r} must be positive")
    return h, w


@app.command()
def solve(
    level_file: str = typer.Argument(..., metavar="LEVEL", help=LEVEL_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the solution as JSON."),
    by: By = typer.Option(By.moves, "--by", help="Fewest moves (ties: least distance) or least distance."),
) -> None:
    """Print the optimal solution of a level (status 1 if it is unsolvable)."""
    from designer.formats import read_level
    from designer.solver import solve as solve_level

    level = read_level(level_file)
    solution = solve_level(level, by=by.value)
    if as_json:
        payload = {"solvable": True, **solution.to_dict()} if solution else {"solvable": False}
        typer.echo(json.dumps(payload))
    elif solution:
        typer.echo(f"{solution.moves}\nstops: {solution.stops}  distance: {solution.distance}")
    if solution is None:
        raise RequestNotMet("unsolvable: the goal cannot be reached from the start")


@app.command()
def analyze(
    level_file: str = typer.Argument(..., metavar="LEVEL", help=LEVEL_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the level's analysis object as JSON."),
) -> None:
    """Solvability class, reversibility, min stops, SCCs, traps and difficulty figures."""
    from designer.analysis import analyze as analyze_level
    from designer.formats import read_level
    from designer.render import report

    level = read_level(level_file)
    result = analyze_level(level)
    if as_json:
        typer.echo(json.dumps(result.to_dict()))
    else:
        typer.echo(report(level, result))


@bench_app.command("classify")
def bench_classify_cmd(
    count: int = typer.Option(10_000, min=1, help="How many random levels."),
    size: str = typer.Option("12x12", help="Level size HxW."),
    density: float = typer.Option(0.2, min=0.0, max=1.0, help="Probability of rock per interior cell."),
    seed: int = typer.Option(0, help="Seed of the random levels."),
    repeats: int = typer.Option(5, min=1, help="Timed runs (the median is reported)."),
) -> None:
    """Time classifying random framed levels (class, reversibility, min stops)."""
    from designer.bench import bench_classify

    h, w = parse_size(size)
    if h < 3 or w < 3:
        raise DesignerError("a framed level needs a size of at least 3x3")
    typer.echo(json.dumps(bench_classify(count, h, w, density, seed, repeats), indent=2))


@bench_app.command("analyze")
def bench_analyze_cmd(
    size: str = typer.Option("300x300", help="Level size HxW."),
    density: float = typer.Option(0.2, min=0.0, max=1.0, help="Probability of rock per interior cell."),
    seed: int = typer.Option(0, help="Seed of the random level."),
    runs: int = typer.Option(5, min=1, help="Timed runs (the median is reported)."),
    as_json: bool = typer.Option(False, "--json", help="Time 'analyze --json' instead of the text report."),
) -> None:
    """Whole-process time of 'designer analyze' on a random solvable level."""
    from designer.bench import bench_analyze

    h, w = parse_size(size)
    if h < 3 or w < 3:
        raise DesignerError("a framed level needs a size of at least 3x3")
    typer.echo(json.dumps(bench_analyze(h, w, density, seed, runs, as_json), indent=2))


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status instead of raising."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        typer.echo("usage: designer COMMAND [ARGS]... (commands: solve, analyze, bench; see designer --help)", err=True)
        return 2
    try:
        result = app(args=argv, prog_name="designer", standalone_mode=False)
    except typer.Abort:
        typer.echo("designer: aborted", err=True)
        return 130
    except DesignerError as exc:
        typer.echo(f"designer: {exc}", err=True)
        return 2
    except RequestNotMet as exc:
        typer.echo(f"designer: {exc}", err=True)
        return 1
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except Exception as exc:
        # Usage errors of the command-line parser (click's, or the copy newer typer ships).
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        typer.echo(f"designer: {exc.format_message()}", err=True)
        return 2
    return result if isinstance(result, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
