"""The ``designer`` command: a thin shell over the library.

Exit status: 0 success; 1 the request cannot be met (an unsolvable level for ``solve``; no
design for ``make``: proven infeasible, or the time limit reached);
2 bad input or usage, always as one line on standard error.
"""

from __future__ import annotations

import io
import json
import math
import os
import signal
import sys
import threading
from contextlib import ExitStack
from enum import Enum
from typing import Optional

import typer

from designer.core.errors import DesignerError

# Plain help (no rich panels): typer's rich help shows every flag, --help too, as "<bool>".
app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Design, solve and analyse sliding-ice puzzles.",
)


def _print_version(asked: bool) -> None:
    if asked:
        from designer import __version__

        typer.echo(f"designer (ice-designer) {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                          help="Print the version and exit.")) -> None:
    """Design, solve and analyse sliding-ice puzzles."""


bench_app = typer.Typer(help="Benchmarks that print figures.", rich_markup_mode=None)
app.add_typer(bench_app, name="bench")

LEVEL_HELP = "Level file (canonical ASCII, a dialect, or JSON), or - for standard input."


class By(str, Enum):
    moves = "moves"
    distance = "distance"


class RequestNotMet(Exception):
    """The request is valid but cannot be met: printed as one line, exit status 1."""


class _OutputClosed(Exception):
    """Standard output was closed by its reader (``| head``): stop quietly, status 0."""


#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130
#: Signals that end a command the way Ctrl-C does; the status is 128 + the signal, as shells say.
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
_ended_by: list[int] = []  # the ending signal that arrived, if one did


def _end_on_signal(signum, frame) -> None:
    """SIGTERM or SIGHUP: stop like Ctrl-C (every stage's stop-and-keep-whole-files path), and
    remember which signal it was for the exit status."""
    _ended_by.append(signum)
    raise KeyboardInterrupt


def _one_line(message: str) -> str:
    """An error message as one line: control characters a user's input brought in (a newline in
    a file name or a JSON value) are shown escaped, never obeyed."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in message)


def echo(text: str, *, nl: bool = True) -> None:
    """Write to standard output and flush, turning a closed pipe or a full disk into our errors."""
    try:
        sys.stdout.write(text + ("\n" if nl else ""))
        sys.stdout.flush()
    except BrokenPipeError:
        raise _OutputClosed() from None
    except (OSError, ValueError) as exc:  # ValueError: stdout itself was closed
        reason = getattr(exc, "strerror", None) or "it is closed"
        raise DesignerError(f"cannot write to standard output ({reason})") from None


def finite(seconds: float | None, option: str) -> float | None:
    """A time option, refused in one line when it is not a finite number of seconds (every stage
    takes a share of it)."""
    if seconds is not None and not math.isfinite(seconds):
        raise DesignerError(f"{option} must be a finite number of seconds, not {seconds}")
    return seconds


def machine_workers(workers: int | None) -> int | None:
    """``--workers``, capped at the cores this machine has (more threads or processes than cores
    only slow the work down and cost memory), with a note when it is."""
    cores = os.cpu_count() or 1
    if workers is not None and workers > cores:
        typer.echo(f"designer: note: --workers {workers} is more than the {cores} cores here; using {cores}",
                   err=True)
        return cores
    return workers


def parse_size(text: str) -> tuple[int, int]:
    """'12x12' -> (12, 12)."""
    try:
        h, w = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise DesignerError(f"size {text!r} is not of the form HxW, e.g. 12x12") from None
    if h < 1 or w < 1:
        raise DesignerError(f"size {text!r} must be positive")
    return h, w


def framed_size(text: str) -> tuple[int, int]:
    """A size for random framed levels: HxW, at least 3x3, within the level limits."""
    from designer.core.level import check_size

    h, w = parse_size(text)
    if h < 3 or w < 3:
        raise DesignerError("a framed level needs a size of at least 3x3")
    check_size(h, w)
    return h, w


#: Options of make that bench make sets itself (a level per seed, read as JSON from its output).
BENCH_MAKE_SETS = ("-o", "--output", "--out", "--format", "--seed", "--count", "--from")


@app.command()
def solve(
    level_file: str = typer.Argument(..., metavar="LEVEL", help=LEVEL_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the solution as JSON."),
    by: By = typer.Option(By.moves, "--by", help="Fewest moves (ties: least distance) or least distance."),
) -> None:
    """Print the optimal solution of a level (status 1 if it is unsolvable)."""
    from designer.formats.level_files import read_level
    from designer.analysis.solver import solve as solve_level

    level = read_level(level_file)
    solution = solve_level(level, by=by.value)
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
    from designer.analysis.graph import analyze as analyze_level
    from designer.formats.level_files import read_level
    from designer.export.report import report

    level = read_level(level_file)
    result = analyze_level(level)
    if as_json:
        echo(json.dumps(result.to_dict()))
    else:
        echo(report(level, result))


def _method_names() -> tuple[str, ...]:
    from designer.search.methods import names

    return names()


#: The registry's methods (``designer.search.methods``), as the options' choices.
Method = Enum("Method", {name: name for name in _method_names()}, type=str)


class Format(str, Enum):
    ascii = "ascii"
    json = "json"


def _difficulty_presets() -> dict:
    from designer.search.difficulty import PRESETS

    return PRESETS


#: The presets of ``designer.search.difficulty``, as the option's choices and its help.
Difficulty = Enum("Difficulty", {name: name for name in _difficulty_presets()}, type=str)
DIFFICULTY_HELP = "A preset: " + "; ".join(f"{p.name}, {p.summary}" for p in _difficulty_presets().values()) + "."


def parse_cell(text: str | None, option: str) -> tuple[int, int] | None:
    """'11,5' -> (11, 5)."""
    if text is None:
        return None
    try:
        r, c = (int(part) for part in text.split(","))
    except ValueError:
        raise DesignerError(f"{option} {text!r} is not of the form R,C, e.g. 11,5") from None
    return r, c


@app.command()
def make(
    size: Optional[str] = typer.Option(None, metavar="HxW", help="Grid size HxW, the frame included (default 12x12)."),
    template: Optional[str] = typer.Option(None, "--template", metavar="FILE",
                                           help="A sketch to fill: canonical ASCII plus ? for a free cell."),
    min_stops: Optional[int] = typer.Option(None, "--min-stops", help="Least min stops (default 15; 1 with --maximize)."),
    max_stops: Optional[int] = typer.Option(None, "--max-stops", help="Most min stops: with --min-stops, a band."),
    start: Optional[str] = typer.Option(None, metavar="R,C", help="Pin the start at R,C (default: chosen on the bottom edge)."),
    goal: Optional[str] = typer.Option(None, metavar="R,C", help="Pin the goal at R,C (default: chosen on the top edge)."),
    seed: Optional[int] = typer.Option(None, min=0, help="Seed of every random choice: the same seed gives the same level (default 0)."),
    time_limit: Optional[float] = typer.Option(None, "--time-limit", min=0.0, callback=lambda v: finite(v, "--time-limit"),
                                               help="Seconds to search (per level; default 60)."),
    fmt: Format = typer.Option(Format.ascii, "--format", help="Canonical ASCII or the JSON level."),
    output_file: Optional[str] = typer.Option(None, "-o", "--output", metavar="FILE", help="Write the level to FILE instead of stdout."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing output files."),
    no_frame: bool = typer.Option(False, "--no-frame", help="No rock frame: the grid edge is the wall."),
    max_rocks: Optional[int] = typer.Option(None, "--max-rocks", help="At most N rocks (frame not counted)."),
    snow: Optional[int] = typer.Option(None, "--snow", min=0, metavar="N",
                                       help="Exactly N snow tiles (default 0, or the template's own)."),
    tidy: bool = typer.Option(False, "--tidy", help="Every rock and snow tile the designer places is needed."),
    maximize: bool = typer.Option(False, "--maximize", help="Raise min stops as far as the time limit allows."),
    min_choices: Optional[int] = typer.Option(None, "--min-choices", metavar="N",
                                              help="At least N options (other moves open) along the printed solution."),
    maximize_choices: bool = typer.Option(False, "--maximize-choices",
                                          help="Keep every other constraint and spend the time limit raising the "
                                               "options along the solution."),
    unique: bool = typer.Option(False, "--unique", help="Exactly one fewest-moves solution."),
    difficulty: Optional[Difficulty] = typer.Option(None, "--difficulty", help=DIFFICULTY_HELP),
    curve: Optional[str] = typer.Option(None, "--curve", metavar="A..B",
                                        help="A pack (with --count and --out) whose min stops rise evenly from A "
                                             "to B, each level within one stop of its step."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, callback=machine_workers, help="Solver threads (default: all cores)."),
    count: int = typer.Option(1, "--count", min=1, help="How many distinct levels (with --out)."),
    out: Optional[str] = typer.Option(None, "--out", metavar="DIR", help="Folder for a pack of levels (with --count)."),
    method: Optional[Method] = typer.Option(None, "--method",
                                            help="auto (default): the designer's portfolio; cpsat: the CP-SAT model "
                                                 "alone; random, repair, greedy: the classic generators."),
    from_file: Optional[str] = typer.Option(None, "--from", metavar="LEVEL.json",
                                            help="Run a designed level's request again (its generator record: the "
                                                 "request, method, seed and time limit); --time-limit and --workers "
                                                 "may override the record's."),
    dask: Optional[str] = typer.Option(None, "--dask", metavar="ADDR",
                                       help="Run the exhaustive search's shards on dask: 'local' (a LocalCluster) "
                                            "or tcp://HOST:PORT."),
) -> None:
    """Design a strong, reversible level whose min stops is at least K."""
    from designer.formats import output
    from designer.formats.level_files import format_json, level_to_json
    from designer.cli.progress import reporter
    from designer.search.design import validate
    from designer.search.packs import design_pack, designed_on_cluster
    from designer.search.result import DesignFailed

    if from_file is not None:
        given = {"--size": size, "--template": template, "--min-stops": min_stops, "--max-stops": max_stops,
                 "--start": start, "--goal": goal, "--seed": seed, "--no-frame": no_frame or None,
                 "--max-rocks": max_rocks, "--snow": snow, "--tidy": tidy or None, "--maximize": maximize or None,
                 "--min-choices": min_choices, "--maximize-choices": maximize_choices or None,
                 "--unique": unique or None, "--method": method, "--count": count if count > 1 else None, "--out": out,
                 "--difficulty": difficulty, "--curve": curve}
        clash = next((name for name, value in given.items() if value is not None), None)
        if clash:
            raise DesignerError(f"{clash} does not go with --from: the level's generator record gives the request")
        record = read_record(from_file)
        request, method_name, seed = record.request, record.method, record.seed
        maximize, maximize_choices, expert = record.maximize, record.maximize_choices, record.difficulty
        time_limit = record.time_limit if time_limit is None else time_limit
        workers = record.workers if workers is None else workers
        requests = request
    else:
        request = request_from_options(size, template, min_stops, max_stops, start, goal, no_frame, max_rocks, snow,
                                       tidy, maximize, min_choices, unique)
        method_name, seed = method.value if method is not None else "auto", seed or 0
        time_limit = 60.0 if time_limit is None else time_limit
        request, requests, expert = difficulty_requests(request, count, difficulty, curve, min_stops=min_stops,
                                                        max_stops=max_stops, maximize=maximize,
                                                        maximize_choices=maximize_choices)
    validate(request)
    from designer.search.methods import designer_names, get

    for asked, name in ((maximize, "--maximize"), (maximize_choices, "--maximize-choices")):
        if asked and not get(method_name).can_maximize:
            raise DesignerError(f"{name} needs --method {designer_names()} (the {method_name} generator has no "
                                "proof of a best)")
    if out is None and count > 1:
        raise DesignerError("--count needs --out DIR for the pack")
    if out is not None and output_file is not None:
        raise DesignerError("use either -o FILE (one level) or --out DIR (a pack), not both")
    if output_file == "-":  # standard output, as for every reader's "-"
        output_file = None
    suffix = "json" if fmt is Format.json else "txt"
    # Every output path is checked before any work is done.
    if out is not None:
        targets = output.check_folder(out, [f"level-{k + 1:03d}.{suffix}" for k in range(count)], force=force)
    elif output_file is not None:
        output.check_file(output_file, force=force)

    def render(found) -> str:
        if fmt is Format.json:
            return format_json(level_to_json(found.level, generator=found.generator, report=found.analysis))
        return str(found.level) + "\n"

    made = []
    with ExitStack() as stack:
        executor = None
        if dask is not None:
            from designer.search.executor import open_executor

            executor = open_executor(dask, workers)
            stack.callback(executor.close)
        if out is not None:
            stack.enter_context(output.folder(out))
        progress = stack.enter_context(reporter(count, enabled=sys.stderr.isatty()))
        level_by_level = not designed_on_cluster(executor, count, method_name)
        pack = design_pack(requests, count, seed=seed, time_limit=time_limit, workers=workers, maximize=maximize,
                           method=method_name, executor=executor, progress_for=progress.for_level,
                           on_cluster_level=progress.advance, maximize_choices=maximize_choices, difficulty=expert)
        try:
            for k, found in enumerate(pack):
                made.append(found)
                if out is not None:
                    output.write(targets[k], render(found), force=force)
                if level_by_level:
                    progress.advance()
        except DesignFailed as failure:
            raise RequestNotMet(str(failure)) from None
    if out is None and output_file is not None:
        output.write(output_file, render(made[0]), force=force)
    elif out is None:
        echo(render(made[0]), nl=False)
    for found in made:  # the summary, once the level is safely out
        g = found.generator
        proof = ""
        if maximize:
            proof = ", proven optimal" if g.proven_optimal else ", not proven optimal"
        elif expert:
            proof = ", the longest there is (proven)" if g.proven_optimal else ", the longest found (not proven)"
        skipped = "".join(f"; {why}" for why in g.skipped)
        choices = ""
        if g.options is not None:
            a = found.analysis
            choices = (f", {a.options} options ({a.per_stop:.2f} a stop), {a.rail_stops} rail "
                       f"stop{'s' if a.rail_stops != 1 else ''}, "
                       f"{a.solutions} fewest-moves solution{'s' if a.solutions != 1 else ''}")
            if maximize_choices:
                choices += ", not proven optimal"
            elif expert:
                choices += ", the most found at that length"
        typer.echo(f"designed: min stops {found.min_stops}, strong, reversible{proof}{choices} "
                   f"({g.method}: {g.stage}, seed {g.seed}, {g.seconds:.2f} s{skipped})", err=True)
    if out is not None:
        typer.echo(f"wrote {count} level{'s' if count > 1 else ''} to {out}", err=True)


def difficulty_requests(request, count: int, difficulty, curve: str | None, **given):
    """``make``'s request after ``--difficulty`` or ``--curve``: (the request, the pack's requests
    (one, or one per level of the curve), "expert" or None). The options they set may not be
    given as well."""
    from designer.search import difficulty as presets

    if difficulty is None and curve is None:
        return request, request, None
    if difficulty is not None and curve is not None:
        raise DesignerError("--difficulty and --curve both set the min stops: choose one")
    name = "--difficulty" if difficulty is not None else "--curve"
    for option, value in given.items():
        if value:
            flag = "--" + option.replace("_", "-")
            raise DesignerError(f"{flag} does not go with {name}, which sets the min stops itself")
    if difficulty is not None:
        request = presets.banded(request, difficulty.value)
        return request, request, presets.EXPERT if difficulty.value == presets.EXPERT else None
    low, high = presets.parse_curve(curve)
    requests = presets.curve_requests(request, low, high, count)
    return requests[-1], requests, None


def request_from_options(size, template, min_stops, max_stops, start, goal, no_frame, max_rocks, snow, tidy,
                         maximize, min_choices=None, unique=False):
    """The ``LayoutRequest`` that ``make``'s options describe (before ``validate``)."""
    from designer.core.request import LayoutRequest

    rows = None
    if template is not None:
        from designer.formats.template import read_template

        for given, name in ((size, "--size"), (no_frame or None, "--no-frame")):
            if given is not None:
                raise DesignerError(f"{name} does not go with --template: the template draws the grid and its walls")
        rows = read_template(template)
        for pin, char, name in ((start, "S", "--start"), (goal, "G", "--goal")):
            if pin is not None and any(char in row for row in rows):
                raise DesignerError(f"{name} and the template's {char!r} both pin the same end: keep one")
    h, w = (len(rows), len(rows[0])) if rows else parse_size(size or "12x12")
    return LayoutRequest(
        height=h, width=w, frame=not no_frame and rows is None,
        min_stops=min_stops if min_stops is not None else (1 if maximize else 15),
        max_stops=max_stops, start=parse_cell(start, "--start"), goal=parse_cell(goal, "--goal"),
        max_rocks=max_rocks, snow=snow if snow is not None else sum(row.count("_") for row in rows or ()),
        tidy=tidy, template=rows, min_choices=min_choices, unique=unique,
    )


def read_record(source: str):
    """The generator record of a designed level's JSON file (``make --from``)."""
    from designer.formats.level_files import read_level_file
    from designer.search.result import GeneratorRecord

    generator = read_level_file(source).generator
    try:
        return GeneratorRecord.from_json(generator or None)
    except DesignerError as exc:
        raise DesignerError(f"--from {source}: {exc}") from None


def check_plot(plot_file: str | None, force: bool) -> None:
    """Before any work: ``--plot FILE.png`` can be written, and the [plot] extra is installed."""
    if plot_file is not None:
        from designer.core.extras import need
        from designer.formats import output

        output.check_file(plot_file, force=force, option="--plot", suffixes=(".png",))
        need("matplotlib", "plot")


def parse_targets(text: str) -> list[int]:
    """'10,15,20' -> [10, 15, 20]."""
    try:
        targets = [int(part) for part in text.split(",")]
    except ValueError:
        raise DesignerError(f"--min-stops {text!r} is not a number or a comma-separated list of numbers") from None
    if any(t < 1 for t in targets):
        raise DesignerError("--min-stops must be at least 1")
    return targets


@app.command()
def compare(
    min_stops: str = typer.Option("20", "--min-stops", metavar="K[,K...]", help="Target K, or a list: 10,15,20,25,30."),
    budget: float = typer.Option(20.0, "--budget", min=0.1, callback=lambda v: finite(v, "--budget"),
                                 help="Seconds per method per level."),
    seeds: int = typer.Option(5, "--seeds", min=1, help="Seeds 1..N for every method and target."),
    methods: str = typer.Option(",".join(m.value for m in Method), "--methods", help="Comma-separated methods."),
    size: str = typer.Option("12x12", metavar="HxW", help="Grid size HxW (with a frame)."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, callback=machine_workers, help="CP-SAT threads (default: all cores)."),
    as_json: bool = typer.Option(False, "--json", help="Print the results as JSON."),
    levels: bool = typer.Option(False, "--levels", help="Include every verified level in the JSON."),
    plot_file: Optional[str] = typer.Option(None, "--plot", metavar="FILE.png", help="Write a PNG of time to a level against K."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing plot file."),
) -> None:
    """Run generators side by side on the same requests, budget and verifier."""
    from designer.studies import compare as comparison
    from designer.search.design import validate
    from designer.formats import output
    from designer.cli.progress import reporter
    from designer.core.request import LayoutRequest

    h, w = parse_size(size)
    targets = parse_targets(min_stops)
    chosen = tuple(m.strip() for m in methods.split(",") if m.strip())
    unknown = [m for m in chosen if m not in comparison.METHODS]
    if unknown or not chosen:
        raise DesignerError(f"unknown method {unknown[0] if unknown else '(none)'}: "
                            f"choose from {', '.join(comparison.METHODS)}")
    request = LayoutRequest(height=h, width=w, min_stops=max(targets))
    validate(request)
    check_plot(plot_file, force)
    total = len(targets) * seeds * len(chosen)
    with reporter(total, enabled=sys.stderr.isatty()) as progress:
        result = comparison.compare(request, targets, list(range(1, seeds + 1)), budget, chosen, workers=workers,
                                    keep_levels=levels, on_run=lambda run: progress.advance())
    if plot_file is not None:
        buffer = io.BytesIO()
        comparison.plot(result, buffer)
        output.write(plot_file, buffer.getvalue(), force=force)
    if as_json:
        echo(json.dumps(result))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{h}x{w}, budget {budget:g} s per level, seeds 1..{seeds}")
    for column in comparison.TABLE_HEADER:
        table.add_column(column, justify="left" if column in ("K", "method") else "right")
    for row in comparison.table_rows(result):
        table.add_row(*row)
    console = Console(file=io.StringIO(), width=Console().width, force_terminal=sys.stdout.isatty())
    console.print(table)
    echo(console.file.getvalue(), nl=False)


@app.command()
def pareto(
    size: Optional[str] = typer.Option(None, metavar="HxW", help="Grid size HxW, the frame included (default 12x12)."),
    template: Optional[str] = typer.Option(None, "--template", metavar="FILE",
                                           help="A sketch to fill: canonical ASCII plus ? for a free cell."),
    no_frame: bool = typer.Option(False, "--no-frame", help="No rock frame: the grid edge is the wall."),
    max_rocks: Optional[int] = typer.Option(None, "--max-rocks", help="At most N rocks (frame not counted)."),
    snow: Optional[int] = typer.Option(None, "--snow", min=0, metavar="N", help="Exactly N snow tiles."),
    start: Optional[str] = typer.Option(None, metavar="R,C", help="Pin the start at R,C."),
    goal: Optional[str] = typer.Option(None, metavar="R,C", help="Pin the goal at R,C."),
    time_limit: float = typer.Option(..., "--time-limit", min=1.0, callback=lambda v: finite(v, "--time-limit"),
                                     help="Seconds for the whole front (and the plot)."),
    seed: int = typer.Option(0, min=0, help="Seed of every random choice."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, callback=machine_workers, help="Threads per run (default: all cores)."),
    out: Optional[str] = typer.Option(None, "--out", metavar="DIR",
                                      help="Write level-NNN.txt (by min stops) and front.json to DIR."),
    plot_file: Optional[str] = typer.Option(None, "--plot", metavar="FILE.png",
                                            help="Draw the front over random generation and the repair generator."),
    as_json: bool = typer.Option(False, "--json", help="Print the front as JSON."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
    dask: Optional[str] = typer.Option(None, "--dask", metavar="ADDR",
                                       help="Run the bands on dask: 'local' (a LocalCluster) or tcp://HOST:PORT."),
) -> None:
    """The Pareto front over (min stops, options along the solution): strong, reversible levels,
    none beaten by another in both."""
    from pathlib import Path

    from designer.cli.progress import reporter
    from designer.formats import output
    from designer.formats.level_files import level_to_json
    from designer.search.design import validate
    from designer.studies import pareto as front_search

    request = request_from_options(size, template, None, None, start, goal, no_frame, max_rocks, snow, False, True)
    validate(request)
    check_plot(plot_file, force)
    if out is not None:
        names = [f"level-{k + 1:03d}.txt" for k in range(front_search.most_runs(time_limit))] + ["front.json"]
        output.check_folder(out, names, force=force)
    cloud_seconds = min(front_search.CLOUD_MAX_SECONDS, front_search.CLOUD_SHARE * time_limit) if plot_file else 0.0
    with ExitStack() as stack:
        executor = None
        if dask is not None:
            from designer.search.executor import open_executor

            executor = open_executor(dask, workers)
            stack.callback(executor.close)
        bar = stack.enter_context(reporter(front_search.most_runs(time_limit), enabled=sys.stderr.isatty(),
                                           description="pareto"))
        result = front_search.pareto(request, time_limit - cloud_seconds, seed=seed, workers=workers,
                                     executor=executor, on_run=lambda what: bar.advance())
    front = result.levels
    if not front:
        raise RequestNotMet(f"time limit reached: no strong reversible level found in {time_limit:g} s")
    as_obj = {"front": [{"min_stops": p.min_stops, "options": p.options,
                         "level": level_to_json(p.design.level, generator=p.design.generator,
                                                report=p.design.analysis)} for p in front]}
    if out is not None:
        with output.folder(out):
            for k, point in enumerate(front):
                output.write(Path(out) / f"level-{k + 1:03d}.txt", str(point.design.level) + "\n", force=force)
            output.write(Path(out) / "front.json", json.dumps(as_obj, indent=1) + "\n", force=force)
    if plot_file is not None:
        cloud = front_search.clouds(request, cloud_seconds, seed=seed)
        buffer = io.BytesIO()
        front_search.plot(result, cloud, buffer, f"{request.height}x{request.width}: the front over the generators")
        output.write(plot_file, buffer.getvalue(), force=force)
    if as_json:
        echo(json.dumps(as_obj))
    else:
        lines = ["| min stops | options | per stop | rail stops | solutions |", "| --- | --- | --- | --- | --- |"]
        for point in front:
            a = point.design.analysis
            lines.append(f"| {a.min_stops} | {a.options} | {a.per_stop:.2f} | {a.rail_stops} | {a.solutions} |")
        echo("\n".join(lines))
    where = f"; wrote {len(front)} levels and front.json to {out}" if out else ""
    typer.echo(f"front: {len(front)} level{'s' if len(front) != 1 else ''}, none dominated{where}", err=True)


def parse_rocks(text: str) -> list[int]:
    """``A..B`` (or one count ``A``) as the list of rock counts."""
    low, sep, high = text.partition("..")
    try:
        first, last = int(low), int(high if sep else low)
    except ValueError:
        raise DesignerError(f"--rocks takes A..B or A (rock counts), not {text!r}") from None
    if first < 0 or last < first or last > 64:
        raise DesignerError(f"--rocks {text}: need 0 <= A <= B <= 64")
    return list(range(first, last + 1))


@app.command()
def records(
    size: str = typer.Option("6x7", metavar="HxW", help="Grid size HxW."),
    no_frame: bool = typer.Option(False, "--no-frame", help="No rock frame: the grid edge is the wall."),
    rocks: str = typer.Option("1..5", "--rocks", metavar="A..B", help="Rock counts to find records for."),
    time_limit: float = typer.Option(60.0, "--time-limit", min=0.1, callback=lambda v: finite(v, "--time-limit"),
                                     help="Seconds per rock count."),
    seed: int = typer.Option(0, min=0, help="Seed of every random choice."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, callback=machine_workers, help="Threads or dask workers (default: all cores)."),
    as_json: bool = typer.Option(False, "--json", help="Print the records as JSON."),
    out: Optional[str] = typer.Option(None, "--out", metavar="DIR",
                                      help="Write records.md, records.json and rocks-NN.txt to DIR."),
    checkpoint: Optional[str] = typer.Option(None, "--checkpoint", metavar="FILE",
                                             help="Keep progress in FILE; a stopped run resumes from it."),
    dask: Optional[str] = typer.Option(None, "--dask", metavar="ADDR",
                                       help="Run the proof's shards on dask: 'local' (a LocalCluster) or tcp://HOST:PORT."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files in --out."),
) -> None:
    """The longest strong, reversible level for each rock count, proven optimal where possible."""
    from pathlib import Path

    from designer.formats import output
    from designer.studies import records as rec
    from designer.search.design import validate
    from designer.search.executor import open_executor
    from designer.cli.progress import records_reporter

    h, w = parse_size(size)
    counts = parse_rocks(rocks)
    validate(rec.record_request(h, w, not no_frame, counts[-1]))
    names = ["records.md", "records.json"] + [f"rocks-{r:02d}.txt" for r in counts]
    targets = output.check_folder(out, names, force=force) if out is not None else None
    if checkpoint is not None:
        output.check_file(checkpoint, force=True, option="--checkpoint")
        kept = os.path.abspath(checkpoint)
        if out is not None and kept in {os.path.abspath(out), *(os.path.abspath(t) for t in targets)}:
            raise DesignerError(f"--checkpoint {checkpoint} is --out {out} or a file the run writes there: "
                                "give the checkpoint a path of its own")
    executor = open_executor(dask, workers)
    try:
        with records_reporter(len(counts), enabled=sys.stderr.isatty()) as bar:
            found = rec.records(h, w, not no_frame, counts, time_limit, seed=seed, workers=workers, executor=executor,
                                checkpoint_path=Path(checkpoint) if checkpoint else None,
                                on_record=bar.advance, on_phase=bar.phase)
    finally:
        executor.close()
    table = rec.markdown_table(h, w, not no_frame, found)
    as_obj = rec.records_json(found)
    if targets is not None:
        with output.folder(out):
            output.write(targets[0], table, force=force)
            output.write(targets[1], json.dumps(as_obj, indent=2) + "\n", force=force)
            for path, one in zip(targets[2:], found):
                if one.level is not None:
                    output.write(path, str(one.level) + "\n", force=force)
    echo(json.dumps(as_obj, indent=2) + "\n" if as_json else table, nl=False)


LEVELS_HELP = "A level file (canonical ASCII, a dialect, or JSON), - for standard input, or a pack folder."
PICTURE_SUFFIXES = (".svg", ".png")


@app.command()
def render(
    source: str = typer.Argument(..., metavar="LEVEL|DIR", help=LEVELS_HELP),
    output_file: str = typer.Option(..., "-o", "--output", metavar="FILE",
                                    help="The picture: FILE.svg or FILE.png (the format is the suffix)."),
    solution: bool = typer.Option(False, "--solution", help="Draw the fewest-moves path, its stops numbered."),
    moves_left: bool = typer.Option(False, "--moves-left",
                                    help="Shade each resting cell by the moves left to the goal; cross out traps."),
    graph: bool = typer.Option(False, "--graph",
                               help="Draw the move graph over the map: moves as arrows, resting cells coloured by "
                                    "strongly connected component, traps crossed out."),
    cell: Optional[int] = typer.Option(None, "--cell", metavar="PIXELS", min=4, max=512,
                                       help="Pixels per cell (default 32; 16 on a pack's contact sheet)."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing picture."),
) -> None:
    """Draw a level as SVG or PNG; a pack folder as one contact sheet."""
    from pathlib import Path

    from designer.formats import output
    from designer.export import picture
    from designer.analysis.graph import is_solvable
    from designer.formats.level_files import read_levels

    suffix = Path(output_file).suffix.lower()
    if suffix not in PICTURE_SUFFIXES:
        raise DesignerError(f"-o {output_file}: unknown picture format {suffix or '(no suffix)'!r}; "
                            "use .svg or .png")
    output.check_file(output_file, force=force)
    levels = read_levels(source)
    unsolvable = [entry.name for entry in levels if solution and not is_solvable(entry.level)]
    if unsolvable:
        raise RequestNotMet(f"unsolvable: {unsolvable[0]} has no solution to draw (--solution)")
    if len(levels) == 1 and not Path(source).is_dir():
        drawing = picture.draw_level(levels[0].level, cell=cell or picture.DEFAULT_CELL, solution=solution,
                                     moves_left=moves_left, graph=graph)
    else:
        drawing = picture.contact_sheet([(entry.name, entry.level) for entry in levels], cell=cell or 16,
                                        solution=solution, moves_left=moves_left, graph=graph)
    data = picture.png_bytes(drawing) if suffix == ".png" else picture.svg_text(drawing)
    output.write(output_file, data, force=force)
    typer.echo(f"wrote {output_file}", err=True)


class ExportFormat(str, Enum):
    tiled = "tiled"


@app.command()
def export(
    source: str = typer.Argument(..., metavar="LEVEL|DIR", help=LEVELS_HELP),
    to: ExportFormat = typer.Option(..., "--to", help="The target: tiled (a Tiled JSON map, .tmj)."),
    output_file: Optional[str] = typer.Option(None, "-o", "--output", metavar="FILE.tmj", help="The map of one level."),
    out: Optional[str] = typer.Option(None, "--out", metavar="DIR", help="A folder for the maps (one per level)."),
    cell: int = typer.Option(32, "--cell", metavar="PIXELS", min=4, max=512, help="Tile size in pixels."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
) -> None:
    """Export levels for a game engine: Tiled maps with their tileset image beside them."""
    from pathlib import Path

    from designer.formats import output
    from designer.export import picture, tiled
    from designer.formats.level_files import read_levels

    if (output_file is None) == (out is None):
        raise DesignerError("give either -o FILE.tmj (one level) or --out DIR")
    levels = read_levels(source)
    if output_file is not None:
        if len(levels) > 1:
            raise DesignerError(f"{source} holds {len(levels)} levels: use --out DIR for a pack")
        if Path(output_file).suffix.lower() not in (".tmj", ".json"):
            raise DesignerError(f"-o {output_file}: a Tiled map is written as FILE.tmj (or FILE.json)")
        maps = [output.check_file(output_file, force=force)]
        image = output.check_file(output.beside(maps[0], tiled.TILESET_IMAGE), force=force, option="-o")
        place = None
    else:
        names = [f"{entry.name}.tmj" for entry in levels] + [tiled.TILESET_IMAGE]
        *maps, image = output.check_folder(out, names, force=force)
        place = out
    documents = [json.dumps(tiled.to_tiled_file(entry, cell=cell), indent=1) + "\n" for entry in levels]
    with ExitStack() as stack:
        if place is not None:
            stack.enter_context(output.folder(place))
        output.write(image, picture.png_bytes(picture.tileset(cell)), force=force)
        for path, document in zip(maps, documents):
            output.write(path, document, force=force)
    typer.echo(f"wrote {len(maps)} map{'s' if len(maps) > 1 else ''} and {image}", err=True)


@app.command()
def play(
    source: str = typer.Argument(..., metavar="LEVEL|DIR", help=LEVELS_HELP),
    output_file: str = typer.Option(..., "-o", "--output", metavar="FILE.html", help="The page."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing page."),
) -> None:
    """Write a self-contained HTML page to play a level or a pack, offline."""
    from pathlib import Path

    from designer.formats import output
    from designer.formats.level_files import read_levels
    from designer.export.play import page

    if Path(output_file).suffix.lower() not in (".html", ".htm"):
        raise DesignerError(f"-o {output_file}: the page is written as FILE.html")
    output.check_file(output_file, force=force)
    levels = read_levels(source)
    title = f"ice-designer: {Path(source).name if source != '-' else 'level'}"
    output.write(output_file, page(levels, title=title), force=force)
    typer.echo(f"wrote {output_file} ({len(levels)} level{'s' if len(levels) > 1 else ''})", err=True)


@bench_app.command("classify")
def bench_classify_cmd(
    count: int = typer.Option(10_000, min=1, help="How many random levels."),
    size: str = typer.Option("12x12", help="Level size HxW."),
    density: float = typer.Option(0.2, min=0.0, max=1.0, help="Probability of rock per interior cell."),
    seed: int = typer.Option(0, min=0, help="Seed of the random levels."),
    repeats: int = typer.Option(5, min=1, help="Timed runs (the median is reported)."),
) -> None:
    """Time classifying random framed levels (class, reversibility, min stops)."""
    from designer.studies.bench import bench_classify

    h, w = framed_size(size)
    echo(json.dumps(bench_classify(count, h, w, density, seed, repeats), indent=2))


@bench_app.command("analyze")
def bench_analyze_cmd(
    size: str = typer.Option("300x300", help="Level size HxW."),
    density: float = typer.Option(0.2, min=0.0, max=1.0, help="Probability of rock per interior cell."),
    seed: int = typer.Option(0, min=0, help="Seed of the random level."),
    runs: int = typer.Option(5, min=1, help="Timed runs (the median is reported)."),
    as_json: bool = typer.Option(False, "--json", help="Time 'analyze --json' instead of the text report."),
) -> None:
    """Whole-process time of 'designer analyze' on a random solvable level."""
    from designer.studies.bench import bench_analyze

    h, w = framed_size(size)
    echo(json.dumps(bench_analyze(h, w, density, seed, runs, as_json), indent=2))


@bench_app.command("make", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def bench_make_cmd(
    ctx: typer.Context,
    seeds: int = typer.Option(5, "--seeds", min=1, help="Run seeds 1..N (the median is reported)."),
) -> None:
    """Whole-process time of 'designer make ARGS' over seeds, each level verified again.

    Example: designer bench make --seeds 5 -- --min-stops 25
    """
    from designer.studies.bench import bench_make

    for arg in ctx.args:
        name = arg.split("=", 1)[0]
        if name in BENCH_MAKE_SETS:
            raise DesignerError(f"bench make: {name} is bench's own (it runs seeds 1..N and reads each level, "
                                "as JSON, from standard output); leave it out")
    echo(json.dumps(bench_make(list(ctx.args), list(range(1, seeds + 1))), indent=2))


class _ClosedStream(io.TextIOBase):
    """Standing in for a standard stream the shell closed (``>&-``, ``2>&-``): Python then has
    None there. It is no terminal, and writing to it fails as writing to a closed file does, so a
    command that must print says so in one line (status 2) instead of crashing."""

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        raise ValueError("I/O operation on closed file")


def _stand_in_for_closed_streams() -> None:
    """Closed standard output or error never crash a command: error messages go nowhere, and
    output fails with one line on standard error (see ``echo``)."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # messages are lost, the work and the status are not
    if sys.stdout is None:
        sys.stdout = _ClosedStream()


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so the interpreter's last flush cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _note_slow_kernels() -> None:
    """Say once, on standard error, when the pure-Python kernels run, and why."""
    from designer.core import kernels  # numpy is loaded already (designer.core.level needs it)

    def note() -> None:
        typer.echo(f"designer: note: using the pure-Python kernels, slower ({kernels.why_python()})", err=True)

    kernels.notify_python_use(note)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status instead of raising.

    0 success; 1 the request cannot be met; 2 bad input or usage; 130 interrupted (Ctrl-C).
    Every failure is one line on standard error.
    """
    argv = sys.argv[1:] if argv is None else argv
    _stand_in_for_closed_streams()
    if not argv:
        typer.echo("usage: designer COMMAND [ARGS]... (commands: make, solve, analyze, render, export, play, compare, "
                   "records, pareto, bench; see designer --help)", err=True)
        return 2
    _note_slow_kernels()
    _ended_by.clear()
    in_main_thread = threading.current_thread() is threading.main_thread()
    before = {s: signal.signal(s, _end_on_signal) for s in ENDING_SIGNALS} if in_main_thread else {}
    try:
        result = app(args=argv, prog_name="designer", standalone_mode=False)
    except (KeyboardInterrupt, typer.Abort):
        result = INTERRUPTED
    except DesignerError as exc:
        typer.echo(f"designer: {_one_line(str(exc))}", err=True)
        return 2
    except RequestNotMet as exc:
        typer.echo(f"designer: {_one_line(str(exc))}", err=True)
        return 1
    except MemoryError:
        typer.echo("designer: out of memory: the request needs more memory than this machine has", err=True)
        return 1
    except _OutputClosed:
        _quiet_stdout()
        return 0
    except Exception as exc:
        # Usage errors of the command-line parser (click's, or the copy newer typer ships).
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise
        typer.echo(f"designer: {_one_line(exc.format_message())}", err=True)
        return 2
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
    if result == INTERRUPTED and _ended_by:
        typer.echo("designer: terminated", err=True)
        return 128 + _ended_by[0]
    if result == INTERRUPTED:  # typer turns Ctrl-C into Exit(130) and prints nothing
        typer.echo("designer: interrupted", err=True)
        return INTERRUPTED
    return result if isinstance(result, int) else 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())
