"""``designer game``: a whole game from a plan (``designer.game``), written into a folder and summed
up in a line per world."""

from __future__ import annotations

import typer

from designer.cli.progress import progress_bar
from designer.cli.shell import DESIGN, app, bounded, cancel_token, examples, note, progress_shown
from designer.core.limits import MAX_SEED


@app.command(
    rich_help_panel=DESIGN,
    epilog=examples(
        "designer game --out my-game",
        "designer game plan.toml --out my-game --seed 7",
        "designer game my-game/plan.toml --out again --dask local",
    ),
)
def game(
    ctx: typer.Context,
    plan_file: str | None = typer.Argument(
        None,
        metavar="PLAN",
        help="A game plan (TOML or JSON; docs/spec.md, Games); default: six worlds of eight levels.",
    ),
    out: str = typer.Option(
        ..., "--out", metavar="DIR", help="The folder the game is written into (new or empty)."
    ),
    seed: int | None = typer.Option(
        None,
        min=0,
        metavar="N",
        callback=bounded("--seed", 0, MAX_SEED),
        help="Seed of every random choice (default: the plan's, else 0).",
    ),
    dask: str | None = typer.Option(
        None,
        "--dask",
        metavar="ADDR",
        help="Design the worlds at once on dask: 'local' (a LocalCluster) or tcp://HOST:PORT.",
    ),
    force: bool = typer.Option(
        False, "--force", help="Write into a folder that holds files (the game's are replaced)."
    ),
) -> None:
    """Design a whole game: worlds that each teach a mechanic, levels rising in predicted
    difficulty, a cave to end each world; its page, report and Tiled project."""
    from designer.game.make import make_game
    from designer.game.plan import DEFAULT, read_plan

    plan = DEFAULT if plan_file is None else read_plan(plan_file)
    if seed is not None:
        plan = plan.but(seed=seed)
    with progress_bar(progress_shown()) as on_progress:
        made = make_game(
            plan, out, force=force, dask=dask, on_progress=on_progress, cancel=cancel_token(ctx)
        )
    for number, world in enumerate(made.worlds, 1):
        difficulty = [one.difficulty for one in world.levels]
        rooms = None if world.cave is None else len(world.cave.cave.rooms)
        cave = "" if rooms is None else f"; its cave of {rooms} rooms"
        count = len(world.levels)
        note(
            f"world {number} ({world.world.name}, {world.world.mechanic}): {count} "
            f"level{'s' * (count != 1)}, predicted difficulty {min(difficulty):.1f} to "
            f"{max(difficulty):.1f}{cave}"
        )
    levels = sum(len(world.levels) for world in made.worlds)
    note(
        f"wrote a game of {len(made.worlds)} world{'s' * (len(made.worlds) != 1)} and {levels} "
        f"level{'s' * (levels != 1)} to {out} (seed {plan.seed})"
    )
