"""``designer playtest``: play-page logs read against their pack (``designer.ops.playtests``)."""

from __future__ import annotations

import typer

from designer.cli.shell import INSPECT, app, echo, examples, note
from designer.core.players import MEMBERS


@app.command(
    rich_help_panel=INSPECT,
    epilog=examples(
        "designer playtest playtest-*.jsonl --pack pack",
        "designer playtest logs/*.jsonl --pack pack -o report.html",
        "designer playtest logs/*.jsonl --pack pack --fit player.json",
        "designer playtest logs/*.jsonl --pack pack --fit player.json --member simple",
    ),
)
def playtest(
    logs: list[str] = typer.Argument(
        ..., metavar="LOG...", help="Playtest logs the play page saved (JSON Lines)."
    ),
    pack: str = typer.Option(
        ..., "--pack", metavar="LEVEL|DIR", help="The pack the page was made from."
    ),
    output_file: str | None = typer.Option(
        None,
        "-o",
        "--output",
        metavar="FILE.html",
        help="A report page: heat maps per level and the pack's curve.",
    ),
    fit: str | None = typer.Option(
        None,
        "--fit",
        metavar="FILE",
        help="Fit the model's player to the logs and write its player file here.",
    ),
    member: str | None = typer.Option(
        None,
        "--member",
        metavar="NAME",
        help=f"With --fit: fit this member of the family ({', '.join(MEMBERS)}); default: the "
        "one that explains held-out choices best.",
    ),
    player: str | None = typer.Option(
        None,
        "--player",
        metavar="FILE",
        help="The model's player to compare with (a player file; default: the fitted one).",
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite the report or the player file."),
) -> None:
    """Per level: players, share finished, moves and time (median and quartiles), moves over par,
    restarts, hints, where players quit, and the model's prediction beside them."""
    from designer.cli.levels import read_player
    from designer.formats import output
    from designer.ops import playtests

    for path in (output_file, fit):
        if path is not None:
            output.check_file(path, force=force)
    from designer.core.errors import DesignerError

    if fit is not None and player is not None:
        raise DesignerError("--fit finds the player itself: leave out --player")
    if member is not None:
        playtests.check_member(member, fit is not None)
    found = playtests.playtest(
        logs, pack, player=read_player(player), fit=fit is not None, member=member
    )
    for line in playtests.lines(found):
        echo(line)
    if found.fit is not None:
        assert fit is not None  # fitted when --fit names its file
        f = found.fit
        for line in playtests.fit_lines(found):
            echo(line)
        if "warning" in f:
            note(f"warning: {f['warning']}")
        output.write(fit, playtests.player_file(found), force=force)
        note(f"wrote {fit}")
    if output_file is not None:
        output.write(output_file, playtests.report_page(found), force=force)
        note(f"wrote {output_file}")
