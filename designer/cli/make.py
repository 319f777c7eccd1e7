"""``designer make``: the options parsed into ``designer.ops.design``'s values, the levels designed
and written there, and a summary printed for each."""

from __future__ import annotations

from dataclasses import replace

import typer

from designer.cli.make_asks import (
    CoinsOption,
    CountOption,
    CurveBy,
    CurveByOption,
    CurveOption,
    DifficultyOption,
    FirstOption,
    FullClearOption,
    ItemsOption,
    MaximizeChoicesOption,
    MaximizeOption,
    MaxStopsOption,
    MinChoicesOption,
    MinStopsOption,
    OutOption,
    PlayerOption,
    TeleportsOption,
    TidyOption,
    UniqueOption,
)
from designer.cli.make_options import (
    DaskOption,
    DoorOption,
    FmtOption,
    ForceOption,
    Format,
    FromFileOption,
    GoalOption,
    MethodOption,
    OutputFileOption,
    RouteOption,
    SeedOption,
    SnowOption,
    StartOption,
    TimeLimitOption,
    WorkersOption,
)
from designer.cli.progress import progress_bar
from designer.cli.shell import (
    DESIGN,
    app,
    cancel_token,
    echo,
    examples,
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


@app.command(
    rich_help_panel=DESIGN,
    epilog=examples(
        "designer make --min-stops 25 --seed 7 --format json -o level.json",
        "designer make --difficulty hard --items 2",
        "designer make --door 11,5 --door 6,0 --door 0,6 --route 1:3=15",
        "designer make --template examples/maps/l-room.tmx --min-stops 9 --format json -o filled.json",
        "designer make --count 7 --curve 5..35 --out pack",
    ),
)
def make(
    ctx: typer.Context,
    min_stops: MinStopsOption = None,
    max_stops: MaxStopsOption = None,
    maximize: MaximizeOption = False,
    difficulty: DifficultyOption = None,
    items: ItemsOption = None,
    coins: CoinsOption = None,
    full_clear: FullClearOption = None,
    teleports: TeleportsOption = None,
    min_choices: MinChoicesOption = None,
    maximize_choices: MaximizeChoicesOption = False,
    unique: UniqueOption = False,
    curve_by: CurveByOption = CurveBy.stops,
    player: PlayerOption = None,
    first: FirstOption = False,
    tidy: TidyOption = False,
    size: str | None = size_option(),
    template: str | None = template_option(),
    no_frame: bool = no_frame_option(),
    max_rocks: int | None = max_rocks_option(),
    snow: SnowOption = None,
    start: StartOption = None,
    goal: GoalOption = None,
    door: DoorOption = None,
    route: RouteOption = None,
    method: MethodOption = None,
    seed: SeedOption = None,
    time_limit: TimeLimitOption = None,
    workers: WorkersOption = None,
    dask: DaskOption = None,
    from_file: FromFileOption = None,
    count: CountOption = 1,
    curve: CurveOption = None,
    out: OutOption = None,
    fmt: FmtOption = Format.ascii,
    output_file: OutputFileOption = None,
    force: ForceOption = False,
) -> None:
    """Design a strong, reversible level (or a room with doors) whose min stops is at least K."""
    from designer.ops import design as ops
    from designer.ops import make_requests
    from designer.ops.summaries import summary

    if from_file is not None:
        given = {
            "--size": size,
            "--template": template,
            "--min-stops": min_stops,
            "--max-stops": max_stops,
            "--start": start,
            "--goal": goal,
            "--seed": seed,
            "--no-frame": no_frame or None,
            "--max-rocks": max_rocks,
            "--snow": snow,
            "--tidy": tidy or None,
            "--maximize": maximize or None,
            "--min-choices": min_choices,
            "--maximize-choices": maximize_choices or None,
            "--unique": unique or None,
            "--method": method,
            "--count": count if count > 1 else None,
            "--out": out,
            "--difficulty": difficulty,
            "--curve": curve,
            "--door": door or None,
            "--route": route or None,
            "--items": items,
            "--teleports": teleports,
            "--first": first or None,
            "--coins": coins,
            "--full-clear": full_clear,
            "--curve-by": None if curve_by == CurveBy.stops else curve_by.value,
            "--player": player,
        }
        clash = next((name for name, value in given.items() if value is not None), None)
        if clash:
            raise DesignerError(
                f"{clash} does not go with --from: the level's generator record gives the request"
            )
        plan = ops.plan_from(from_file, time_limit=time_limit, workers=workers)
    else:
        plan = ops.plan(
            replace(
                request_options(size, template, start, goal, no_frame, max_rocks, snow),
                min_stops=min_stops,
                max_stops=max_stops,
                seed=seed,
                time_limit=time_limit,
                tidy=tidy,
                maximize=maximize,
                min_choices=min_choices,
                maximize_choices=maximize_choices,
                unique=unique,
                difficulty=None if difficulty is None else difficulty.value,
                curve=curve,
                workers=workers,
                count=count,
                method=None if method is None else method.value,
                doors=tuple(parse_cell(text, "--door") for text in door or ()),
                routes=tuple(route or ()),
                items=items or 0,
                teleports=teleports or 0,
                first=first,
                curve_by=curve_by.value,
                coins=coins or 0,
                full_clear=make_requests.full_clear_band(full_clear),
                player=_player(player),
            )
        )
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
    from designer.ops.make_requests import MakeOptions

    return MakeOptions(
        size=None if size is None else parse_size(size),
        template=template,
        start=parse_cell(start, "--start"),
        goal=parse_cell(goal, "--goal"),
        frame=not no_frame,
        max_rocks=max_rocks,
        snow=snow,
    )
