"""``designer make``: the options parsed into ``designer.ops.design``'s values, the levels designed
and written there, and a summary printed for each."""

from __future__ import annotations

from dataclasses import replace
from enum import Enum

import typer

from designer.cli.progress import progress_bar
from designer.cli.shell import (
    ASK,
    DESIGN,
    GRID,
    OUTPUT,
    PACKS,
    ROOMS,
    SEARCH,
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
    parse_cell,
    parse_size,
    progress_shown,
    size_option,
    template_option,
)
from designer.core.errors import DesignerError
from designer.core.limits import MAX_LEVELS, MAX_SEED


class Format(str, Enum):
    ascii = "ascii"
    json = "json"


def _difficulty_presets() -> dict:
    from designer.search.difficulty import PRESETS

    return PRESETS


#: The presets of ``designer.search.difficulty``, as the option's choices and its help.
Difficulty = Enum("Difficulty", {name: name for name in _difficulty_presets()}, type=str)  # type: ignore[misc]  # members from the presets
DIFFICULTY_HELP = "A preset: " + "; ".join(f"{p.name}, {p.summary}" for p in _difficulty_presets().values()) + "."


class CurveBy(str, Enum):
    stops = "stops"
    difficulty = "difficulty"


def _method_help() -> str:
    """--method's help, from the registry (``designer.search.methods``): every method, once."""
    from designer.search.methods import METHODS

    return "; ".join(f"{m.name}{' (default)' if m.name == 'auto' else ''}: {m.summary}" for m in METHODS.values()) + "."


@app.command(rich_help_panel=DESIGN, epilog=examples(
    "designer make --min-stops 25 --seed 7 --format json -o level.json",
    "designer make --difficulty hard --items 2",
    "designer make --door 11,5 --door 6,0 --door 0,6 --route 1:3=15",
    "designer make --template examples/maps/l-room.tmx --min-stops 9 --format json -o filled.json",
    "designer make --count 7 --curve 5..35 --out pack"))
def make(
    ctx: typer.Context,
    min_stops: int | None = typer.Option(None, "--min-stops", metavar="K", rich_help_panel=ASK,
                                            help="At least K min stops (default 15; 1 with --maximize)."),
    max_stops: int | None = typer.Option(None, "--max-stops", metavar="M", rich_help_panel=ASK,
                                            help="At most M min stops: with --min-stops, a band."),
    maximize: bool = typer.Option(False, "--maximize", rich_help_panel=ASK,
                                  help="Raise min stops as far as the time limit allows."),
    difficulty: Difficulty | None = typer.Option(None, "--difficulty", case_sensitive=False, rich_help_panel=ASK,
                                                    help=DIFFICULTY_HELP),
    items: int | None = typer.Option(None, "--items", min=0, metavar="N", rich_help_panel=ASK,
                                        help="Place N items (*) to take before the goal opens; each one matters."),
    coins: int | None = typer.Option(None, "--coins", min=0, metavar="N", rich_help_panel=ASK,
                                        help="Place N coins ($): optional, each worth taking (the full clear is "
                                             "shorter without it), none to be lost for good."),
    full_clear: str | None = typer.Option(None, "--full-clear", metavar="K[..M]", rich_help_panel=ASK,
                                             help="With --coins: the full clear (every coin, then the exit) "
                                                  "between K and M moves (at least K without ..M)."),
    teleports: int | None = typer.Option(None, "--teleports", min=0, metavar="N", rich_help_panel=ASK,
                                            help="Place N teleport pairs (portals, each the other's target); each "
                                                 "pair matters."),
    min_choices: int | None = typer.Option(None, "--min-choices", metavar="N", rich_help_panel=ASK,
                                              help="At least N options (other moves open) along the printed solution."),
    maximize_choices: bool = typer.Option(False, "--maximize-choices", rich_help_panel=ASK,
                                          help="Keep every other constraint and spend the time limit raising the "
                                               "options along the solution."),
    unique: bool = typer.Option(False, "--unique", rich_help_panel=ASK, help="Exactly one fewest-moves solution."),
    curve_by: CurveBy = typer.Option(CurveBy.stops, "--curve-by", case_sensitive=False, rich_help_panel=PACKS,
                                     help="What --curve A..B and --difficulty ask: min stops, or the model's predicted "
                                          "difficulty (1-10, each level within 15%; --min-stops a floor, default 1)."),
    player: str | None = typer.Option(None, "--player", metavar="FILE", rich_help_panel=ASK,
                                         help="The model's player for predicted difficulty (a player file from "
                                              "designer playtest --fit)."),
    first: bool = typer.Option(False, "--first", rich_help_panel=ASK,
                               help="Return the first level that meets the request (by default the designer then "
                                    "spends up to a second raising the choices at each stop)."),
    tidy: bool = typer.Option(False, "--tidy", rich_help_panel=ASK,
                              help="Every rock and snow tile the designer places is needed."),
    size: str | None = size_option(),
    template: str | None = template_option(),
    no_frame: bool = no_frame_option(),
    max_rocks: int | None = max_rocks_option(),
    snow: int | None = typer.Option(None, "--snow", min=0, metavar="N", rich_help_panel=GRID,
                                       help="Exactly N snow tiles (default 0, or the template's own)."),
    start: str | None = typer.Option(None, metavar="R,C", rich_help_panel=GRID,
                                        help="Pin the start at row R, column C (default: chosen on the bottom edge)."),
    goal: str | None = typer.Option(None, metavar="R,C", rich_help_panel=GRID,
                                       help="Pin the goal at row R, column C (default: chosen on the top edge)."),
    door: list[str] | None = typer.Option(None, "--door", metavar="R,C", rich_help_panel=ROOMS,
                                             help="A room's door at row R, column C (repeatable: doors 1, 2, ... in "
                                                  "order)."),
    route: list[str] | None = typer.Option(None, "--route", metavar="A:B[=K[..M]]", rich_help_panel=ROOMS,
                                              help="A route of the room from door A to door B (repeatable; default: "
                                                   "every pair), with its own floor K or band K..M."),
    method: Method | None = typer.Option(None, "--method", case_sensitive=False, metavar="METHOD",
                                            rich_help_panel=SEARCH,
                                            help=_method_help()),  # noqa: B008 (once, when the command is declared)
    seed: int | None = typer.Option(None, min=0, metavar="N", callback=bounded("--seed", 0, MAX_SEED),
                                       rich_help_panel=SEARCH,
                                       help="Seed of every random choice: the same seed gives the same level "
                                            "(default 0)."),
    time_limit: float | None = typer.Option(None, "--time-limit", metavar="SECONDS", rich_help_panel=SEARCH,
                                               callback=lambda v: finite(v, "--time-limit"),
                                               help="Seconds to search, more than 0 (per level; default 60)."),
    workers: int | None = typer.Option(None, "--workers", min=1, metavar="N", callback=machine_workers,
                                          rich_help_panel=SEARCH, help="Solver threads (default: all cores)."),
    dask: str | None = typer.Option(None, "--dask", metavar="ADDR", rich_help_panel=SEARCH,
                                       help="Run the exhaustive search's shards on dask: 'local' (a LocalCluster) "
                                            "or tcp://HOST:PORT."),
    from_file: str | None = typer.Option(None, "--from", metavar="LEVEL.json", rich_help_panel=SEARCH,
                                            help="Run a designed level's request again (its generator record: the "
                                                 "request, method, seed and time limit); --time-limit and --workers "
                                                 "may override the record's."),
    count: int = typer.Option(1, "--count", min=1, metavar="N", callback=bounded("--count", 1, MAX_LEVELS),
                              rich_help_panel=PACKS, help="How many distinct levels (with --out)."),
    curve: str | None = typer.Option(None, "--curve", metavar="A..B", rich_help_panel=PACKS,
                                        help="A pack (with --count and --out) whose min stops rise evenly from A "
                                             "to B, each level within one stop of its step."),
    out: str | None = typer.Option(None, "--out", metavar="DIR", rich_help_panel=PACKS,
                                      help="Folder for a pack of levels (with --count)."),
    fmt: Format = typer.Option(Format.ascii, "--format", case_sensitive=False, rich_help_panel=OUTPUT,
                               help="Canonical ASCII or the JSON level."),
    output_file: str | None = typer.Option(None, "-o", "--output", metavar="FILE", rich_help_panel=OUTPUT,
                                              help="Write the level to FILE instead of standard output."),
    force: bool = typer.Option(False, "--force", rich_help_panel=OUTPUT, help="Overwrite existing output files."),
) -> None:
    """Design a strong, reversible level (or a room with doors) whose min stops is at least K."""
    from designer.ops import design as ops
    from designer.ops.summaries import summary

    if from_file is not None:
        given = {"--size": size, "--template": template, "--min-stops": min_stops, "--max-stops": max_stops,
                 "--start": start, "--goal": goal, "--seed": seed, "--no-frame": no_frame or None,
                 "--max-rocks": max_rocks, "--snow": snow, "--tidy": tidy or None, "--maximize": maximize or None,
                 "--min-choices": min_choices, "--maximize-choices": maximize_choices or None,
                 "--unique": unique or None, "--method": method, "--count": count if count > 1 else None, "--out": out,
                 "--difficulty": difficulty, "--curve": curve, "--door": door or None, "--route": route or None,
                 "--items": items, "--teleports": teleports, "--first": first or None, "--coins": coins,
                 "--full-clear": full_clear,
                 "--curve-by": None if curve_by == CurveBy.stops else curve_by.value, "--player": player}
        clash = next((name for name, value in given.items() if value is not None), None)
        if clash:
            raise DesignerError(f"{clash} does not go with --from: the level's generator record gives the request")
        plan = ops.plan_from(from_file, time_limit=time_limit, workers=workers)
    else:
        plan = ops.plan(replace(
            request_options(size, template, start, goal, no_frame, max_rocks, snow), min_stops=min_stops,
            max_stops=max_stops, seed=seed, time_limit=time_limit, tidy=tidy, maximize=maximize,
            min_choices=min_choices, maximize_choices=maximize_choices, unique=unique,
            difficulty=None if difficulty is None else difficulty.value, curve=curve, workers=workers, count=count,
            method=None if method is None else method.value,
            doors=tuple(parse_cell(text, "--door") for text in door or ()), routes=tuple(route or ()),
            items=items or 0, teleports=teleports or 0, first=first, curve_by=curve_by.value,
            coins=coins or 0, full_clear=ops.full_clear_band(full_clear),
            player=_player(player)))
    output = ops.LevelOutput(file=output_file, folder=out, fmt=fmt.value, force=force)
    with progress_bar(progress_shown()) as on_progress:
        made = ops.make(plan, output, dask=dask, on_progress=on_progress, cancel=cancel_token(ctx))
    if made.text is not None:
        echo(made.text, nl=False)
    for found in made.designs:  # the summary, once the level is safely out
        note(summary(found, plan))
    if out is not None:
        note(f"wrote {plan.count} level{'s' if plan.count > 1 else ''} to {out}")


def _player(path: str | None) -> tuple[float, float] | None:
    if path is None:
        return None
    from designer.cli.levels import read_player

    who = read_player(path)
    return (who.skill, who.back_aversion)


def request_options(size, template, start, goal, no_frame, max_rocks, snow):
    """The options of the layout space, which ``make`` and ``pareto`` share, parsed."""
    from designer.ops.design import MakeOptions

    return MakeOptions(size=None if size is None else parse_size(size), template=template,
                       start=parse_cell(start, "--start"), goal=parse_cell(goal, "--goal"), frame=not no_frame,
                       max_rocks=max_rocks, snow=snow)


