"""``designer cave``: a cave's free rooms designed (or a cave drawn from nothing and designed),
verified whole, written, and summed up in one line (``designer.ops.caves``)."""

from __future__ import annotations

from enum import Enum

import typer

from designer.cli.designed_cave import summary
from designer.cli.progress import progress_bar
from designer.cli.shell import (
    DESIGN,
    app,
    bounded,
    cancel_token,
    echo,
    examples,
    finite,
    machine_workers,
    note,
    parse_size,
    progress_shown,
)
from designer.core.errors import DesignerError
from designer.core.limits import MAX_SEED


class CaveFormat(str, Enum):
    text = "text"
    json = "json"


@app.command(
    rich_help_panel=DESIGN,
    epilog=examples(
        "designer cave examples/caves/four-rooms.txt --min-stops 60 -o cave.txt",
        "designer cave --rooms 6 --keys 2 --min-stops 70 --seed 3 -o cave.json",
        "designer cave --rooms 8 --keys 3 --floors 3 --shape chain --min-stops 100 -o cave.txt",
        "designer cave --rooms 5 --keys 1 --difficulty 9..10 -o cave.json",
        "designer cave examples/caves/ice-path.txt --min-stops 80 --route b1:1:2=12",
        "designer cave --from cave.json",
    ),
)
def cave(
    ctx: typer.Context,
    cave_file: str | None = typer.Argument(
        None,
        metavar="CAVE",
        help="A cave to fill: rooms with free cells (?), their links, keys, "
        "entrance and exit (text or JSON; docs/spec.md, Caves).",
    ),
    rooms: int | None = typer.Option(
        None, "--rooms", metavar="N", help="Draw a cave of N rooms from nothing."
    ),
    keys: int | None = typer.Option(
        None,
        "--keys",
        min=0,
        metavar="N",
        help="With --rooms: N keys (default 0), each in a side room, each needed "
        "for a locked doorway.",
    ),
    size: str | None = typer.Option(
        None,
        "--size",
        metavar="HxW",
        help="With --rooms: each room's size, frame included (default 12x12).",
    ),
    floors: int | None = typer.Option(
        None,
        "--floors",
        metavar="N",
        help="With --rooms: on N floors (default 1), ladders and holes between.",
    ),
    shape: str | None = typer.Option(
        None,
        "--shape",
        metavar="NAME",
        help="With --rooms: gates, chain, shortcut or loop (default: the seed "
        "picks one that fits).",
    ),
    varied: bool = typer.Option(
        False,
        "--varied",
        help="With --rooms: rooms of several sizes and shapes, keys in more than one pattern.",
    ),
    min_stops: int | None = typer.Option(
        None,
        "--min-stops",
        metavar="K",
        min=1,
        help=(
            "At least K min stops over the whole way through (default: 10 a room of a cave "
            "from nothing, at most half of what its way's rooms likely hold, 30 at least; 30 for "
            "a given cave; never above --max-stops)."
        ),
    ),
    max_stops: int | None = typer.Option(
        None, "--max-stops", metavar="M", min=1, help="At most M min stops over the way through."
    ),
    difficulty: str | None = typer.Option(
        None,
        "--difficulty",
        metavar="A[..B]",
        help=(
            "Design the cave again, from other seeds, until its predicted difficulty is A..B (or "
            "A at least; default for a cave from nothing without --min-stops: aimed at a band "
            "that rises with its rooms)."
        ),
    ),
    route: list[str] | None = typer.Option(
        None,
        "--route",
        metavar="ROOM:A:B=K[..M]",
        help="A floor (or band) for one passage of a room, from door A to door B (repeatable).",
    ),
    room: list[str] | None = typer.Option(
        None,
        "--room",
        metavar="ROOM=K[..M]",
        help="A floor (or band) for every passage of a room (repeatable).",
    ),
    seed: int | None = typer.Option(
        None,
        min=0,
        metavar="N",
        callback=bounded("--seed", 0, MAX_SEED),
        help="Seed of every random choice (default 0).",
    ),
    time_limit: float | None = typer.Option(
        None,
        "--time-limit",
        metavar="SECONDS",
        callback=lambda v: finite(v, "--time-limit"),
        help="Seconds for the whole cave, more than 0 (default 60).",
    ),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        metavar="N",
        callback=machine_workers,
        help="Design the rooms one after another, N solver threads each (default: side by side, a "
        "process per core; not with --dask).",
    ),
    dask: str | None = typer.Option(
        None,
        "--dask",
        metavar="ADDR",
        help="Design the rooms at once on dask: 'local' (a LocalCluster) or tcp://HOST:PORT.",
    ),
    from_file: str | None = typer.Option(
        None,
        "--from",
        metavar="CAVE.json",
        help="Design a designed cave's request again (its generator record).",
    ),
    fmt: CaveFormat | None = typer.Option(
        None,
        "--format",
        case_sensitive=False,
        help="The cave's text form or JSON (default: JSON for a .json file).",
    ),
    output_file: str | None = typer.Option(
        None,
        "-o",
        "--output",
        metavar="FILE",
        help="Write the cave to FILE instead of standard output.",
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing output file."),
) -> None:
    """Design a cave of rooms whose whole way through has at least K min stops, every key needed."""
    from designer.caves.dressing import Dressing
    from designer.ops import caves as ops

    if from_file is not None:
        given = {
            "CAVE": cave_file,
            "--rooms": rooms,
            "--keys": keys,
            "--size": size,
            "--floors": floors,
            "--shape": shape,
            "--varied": varied or None,
            "--min-stops": min_stops,
            "--max-stops": max_stops,
            "--difficulty": difficulty,
            "--route": route or None,
            "--room": room or None,
            "--seed": seed,
        }
        clash = next((name for name, value in given.items() if value is not None), None)
        if clash:
            raise DesignerError(
                f"{clash} does not go with --from: the cave's generator record gives the request"
            )
    options = ops.CaveOptions(
        template=cave_file,
        rooms=rooms,
        keys=keys or 0,
        size=None if size is None else parse_size(size),
        floors=floors,
        shape=shape,
        dressing=Dressing(varied=True) if varied else None,
        min_stops=min_stops,
        max_stops=max_stops,
        difficulty=difficulty,
        routes=tuple(route or ()),
        room_bands=tuple(room or ()),
        seed=seed or 0,
        time_limit=time_limit,
        workers=workers,
        source=from_file,
    )
    chosen = ops.suffix_format(output_file, None if fmt is None else fmt.value)
    with progress_bar(progress_shown()) as on_progress:
        made = ops.design(
            options,
            output=output_file,
            fmt=chosen,
            force=force,
            dask=dask,
            on_progress=on_progress,
            cancel=cancel_token(ctx),
        )
    if made.text is not None:
        echo(made.text, nl=False)
    note(summary(made.design))
