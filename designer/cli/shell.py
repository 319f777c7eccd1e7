"""What every command module shares: the typer ``app`` they register on, the options' value
types and parsers (text to typed values), output to standard output, and the cancel token of the
run (``designer.core.control``: the one a Ctrl-C, SIGTERM or SIGHUP sets)."""

from __future__ import annotations

import os
import sys
from enum import Enum

import typer

from designer.core import limits
from designer.core.control import CancelToken
from designer.core.errors import DesignerError

# Rich help: the commands and make's options in panels, each command's examples kept line by line.
# Help texts hold no square brackets (rich markup); metavars are escaped by typer.
app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    help="Design, solve and analyse sliding-ice puzzles.",
)

#: The panels of ``designer --help``, each command in one.
DESIGN, INSPECT, EXPORT, STUDIES = "Design", "Inspect", "Export", "Studies"


def examples(*lines: str) -> str:
    """A command's help epilog: its examples, one a line."""
    return "Examples:\n\n" + "\n\n".join(lines)


def _print_version(asked: bool) -> None:
    if asked:
        from designer import __version__

        typer.echo(f"designer (ice-designer) {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(
        False,
        "--version",
        is_eager=True,
        callback=_print_version,
        help="Print the version and exit.",
    ),
) -> None:
    """Design, solve and analyse sliding-ice puzzles."""


bench_app = typer.Typer(
    help="Benchmarks that print figures (whole-process times, medians).", rich_markup_mode="rich"
)
app.add_typer(bench_app, name="bench", rich_help_panel=STUDIES)

LEVEL_HELP = "A level or room file (canonical ASCII, a dialect, JSON, or a filled Tiled map), or - for standard input."
LEVELS_HELP = (
    "A level or room file (canonical ASCII, a dialect, JSON, or a filled Tiled map), - for standard input, "
    "or a pack folder."
)


#: make's panels of options (pareto shares the grid's).
GRID, ASK, ROOMS, SEARCH, PACKS, OUTPUT = (
    "The grid",
    "What to ask for",
    "Rooms with doors",
    "The search",
    "Packs",
    "Output",
)


def size_option():
    """``--size``, as make and pareto take it (each command gets an option of its own)."""
    return typer.Option(
        None,
        metavar="HxW",
        help="Grid size HxW, the frame included (default 12x12).",
        rich_help_panel=GRID,
    )


def seed_option():
    """``--seed`` as the studies take it (pareto, records): default 0."""
    return typer.Option(
        0,
        min=0,
        metavar="N",
        callback=bounded("--seed", 0, limits.MAX_SEED),
        help="Seed of every random choice.",
    )


def template_option():
    return typer.Option(
        None,
        "--template",
        metavar="FILE",
        help="A sketch to fill: canonical ASCII plus ? for a free cell (doors 1-9 for a room), or a "
        "Tiled map (.tmj, .json or .tmx).",
        rich_help_panel=GRID,
    )


def no_frame_option():
    return typer.Option(
        False, "--no-frame", help="No rock frame: the grid edge is the wall.", rich_help_panel=GRID
    )


def max_rocks_option():
    return typer.Option(
        None,
        "--max-rocks",
        metavar="N",
        help="At most N rocks (frame not counted).",
        rich_help_panel=GRID,
    )


class OutputClosed(Exception):
    """Standard output was closed by its reader (``| head``): stop quietly, status 0."""


def echo(text: str, *, nl: bool = True) -> None:
    """Write to standard output and flush, turning a closed pipe or a full disk into our errors."""
    try:
        try:
            sys.stdout.write(text + ("\n" if nl else ""))
        # a character the stream cannot encode (a lone surrogate half): its escape
        except UnicodeEncodeError:
            encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
            sys.stdout.write(
                (text + ("\n" if nl else "")).encode(encoding, "backslashreplace").decode(encoding)
            )
        sys.stdout.flush()
    except BrokenPipeError:
        raise OutputClosed() from None
    except (OSError, ValueError) as exc:  # ValueError: stdout itself was closed
        reason = getattr(exc, "strerror", None) or "it is closed"
        raise DesignerError(f"cannot write to standard output ({reason})") from None


def note(text: str) -> None:
    """A line for the user on standard error (what was written, a summary, a note)."""
    typer.echo(text, err=True)


def cancel_token(ctx: typer.Context) -> CancelToken:
    """The run's cancel token (``main`` passes it as the context's object; a command invoked
    some other way gets one of its own)."""
    root = ctx.find_root()
    if not isinstance(root.obj, CancelToken):
        root.obj = CancelToken()
    return root.obj


def progress_shown() -> bool:
    """Whether long work shows a bar: on a terminal, not when standard error is piped."""
    return sys.stderr.isatty()


def finite(value: float | None, option: str) -> float | None:
    """A time option, refused in one line unless it is a finite number of seconds, more than 0,
    within the bound every reader keeps (``designer.core.limits``): every stage takes a share of it."""
    if value is None:
        return None
    if type(value) in (int, float) and value <= 0:
        raise DesignerError(f"{option} must be more than 0 seconds, not {value:g}")
    return limits.seconds(value, option)


def bounded(option: str, low: int, high: int):
    """An option's callback: a whole number from ``low`` to ``high`` (None passes)."""
    return lambda value: None if value is None else limits.whole(value, option, low, high)


def machine_workers(workers: int | None) -> int | None:
    """``--workers``, capped at the cores this machine has (more threads or processes than cores
    only slow the work down and cost memory), with a note when it is."""
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores:
        note(
            f"designer: note: --workers {workers} is more than the {cores} cores here; using {cores}"
        )
        return cores
    return workers


def parse_size(text: str) -> tuple[int, int]:
    """'12x12' -> (12, 12)."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(_ascii_whole(part.strip()) for part in parts):
        raise DesignerError(f"size {text!r} is not of the form HxW, e.g. 12x12")
    h, w = int(parts[0]), int(parts[1])
    if h < 1 or w < 1:
        raise DesignerError(f"size {text!r} must be positive")
    return h, w


def framed_size(text: str) -> tuple[int, int]:
    """A size for random framed levels: HxW, at least 3x3, within the level limits."""
    from designer.core.text_forms import check_size

    h, w = parse_size(text)
    if h < 3 or w < 3:
        raise DesignerError("a framed level needs a size of at least 3x3")
    check_size(h, w)
    return h, w


def parse_cell(text: str | None, option: str) -> tuple[int, int] | None:
    """'11,5' -> (11, 5)."""
    if text is None:
        return None
    parts = text.split(",")
    # int() takes any script's digits
    if len(parts) != 2 or not all(_ascii_whole(part.strip()) for part in parts):
        raise DesignerError(f"{option} {text!r} is not of the form R,C, e.g. 11,5")
    return int(parts[0]), int(parts[1])


def _ascii_whole(text: str) -> bool:
    """Whether ``text`` is a whole number in ASCII digits (a sign allowed, at most 7 digits)."""
    digits = text[1:] if text[:1] in "+-" else text
    return digits.isascii() and digits.isdigit() and len(digits) <= 7


def _method_names() -> tuple[str, ...]:
    from designer.search.methods import names

    return names()


#: The registry's methods (``designer.search.methods``), as the options' choices.
# members from the registry
Method = Enum("Method", {name: name for name in _method_names()}, type=str)  # type: ignore[misc]
