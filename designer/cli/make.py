"""``designer make``: the flags given, read as an ask (``designer.cli.flags``) and planned by
``designer.ops.design``, the levels designed and written there, and a summary printed for each."""

from __future__ import annotations

import typer

from designer.cli.flags import asked, flag, given
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
    from designer.ops.summaries import summary

    if from_file is not None:
        clash = given(ctx, leave=WITH_FROM)
        if clash:
            raise DesignerError(
                f"{flag(clash[0])} does not go with --from: the level's generator record gives the "
                "request"
            )
        plan = ops.plan_from(from_file, time_limit=time_limit, workers=workers)
    else:
        plan = ops.plan(asked(ctx))
    output = ops.LevelOutput(file=output_file, folder=out, fmt=fmt.value, force=force)
    with progress_bar(progress_shown()) as on_progress:
        made = ops.make(plan, output, dask=dask, on_progress=on_progress, cancel=cancel_token(ctx))
    if made.text is not None:
        echo(made.text, nl=False)
    for found in made.designs:  # the summary, once the level is safely out
        note(summary(found, plan.job))
    if out is not None:
        note(f"wrote {plan.count} level{'s' if plan.count > 1 else ''} to {out}")


#: What ``make --from`` takes beside the record: more or less time, other workers, and where the
#: level goes.
WITH_FROM = ("from_file", "time_limit", "workers", "dask", "fmt", "output_file", "force")
