"""``designer render``, ``export`` and ``play``: pictures, Tiled maps and the play page."""

from __future__ import annotations

from enum import Enum

import typer

from designer.cli.shell import EXPORT, LEVELS_HELP, app, examples, note


@app.command(
    rich_help_panel=EXPORT,
    epilog=examples(
        "designer render level.json -o level.png --solution",
        "designer render level.txt -o graph.svg --graph",
        "designer render pack -o sheet.png",
    ),
)
def render(
    source: str = typer.Argument(..., metavar="LEVEL|DIR", help=LEVELS_HELP),
    output_file: str = typer.Option(
        ...,
        "-o",
        "--output",
        metavar="FILE",
        help="The picture: FILE.svg or FILE.png (the format is the suffix).",
    ),
    solution: bool = typer.Option(
        False, "--solution", help="Draw the fewest-moves path, its stops numbered."
    ),
    moves_left: bool = typer.Option(
        False,
        "--moves-left",
        help="Shade each resting cell by the moves left to the goal; cross out traps.",
    ),
    graph: bool = typer.Option(
        False,
        "--graph",
        help="Draw the move graph over the map: moves as arrows, resting cells coloured by "
        "strongly connected component, traps crossed out.",
    ),
    heat: bool = typer.Option(
        False,
        "--heat",
        help="Shade each cell by how often the model's player rests there (one level).",
    ),
    player: str | None = typer.Option(
        None,
        "--player",
        metavar="FILE",
        help="The model's player for --heat (a player file; default: the fitted one).",
    ),
    cell: int | None = typer.Option(
        None,
        "--cell",
        metavar="PIXELS",
        min=4,
        max=512,
        help="Pixels per cell (default 32; 16 on a pack's contact sheet).",
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing picture."),
) -> None:
    """Draw a level as SVG or PNG; a pack folder as one contact sheet."""
    from designer.cli.levels import read_player
    from designer.ops import exports

    exports.render(
        source,
        output_file,
        solution=solution,
        moves_left=moves_left,
        graph=graph,
        cell=cell,
        force=force,
        heat=heat,
        player=read_player(player),
    )
    note(f"wrote {output_file}")


class ExportFormat(str, Enum):
    tiled = "tiled"


@app.command(
    rich_help_panel=EXPORT,
    epilog=examples(
        "designer export level.json -o level.tmj",
        "designer export pack --out maps",
        "designer export filled.json --into examples/maps/l-room.tmx -o filled.tmx",
    ),
)
def export(
    source: str = typer.Argument(..., metavar="LEVEL|DIR", help=LEVELS_HELP),
    to: ExportFormat = typer.Option(
        ExportFormat.tiled,
        "--to",
        case_sensitive=False,
        help="The target: tiled (the default and, today, the only one): a Tiled map.",
    ),
    output_file: str | None = typer.Option(
        None,
        "-o",
        "--output",
        metavar="FILE",
        help="The map of one level: FILE.tmj (FILE.tmx with a .tmx --into).",
    ),
    out: str | None = typer.Option(
        None, "--out", metavar="DIR", help="A folder for the maps (one per level)."
    ),
    cell: int = typer.Option(
        32, "--cell", metavar="PIXELS", min=4, max=512, help="Tile size in pixels (default 32)."
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
    into: str | None = typer.Option(
        None,
        "--into",
        metavar="MAP",
        help="Write the level into a copy of your own Tiled map, .tmj or .tmx (the "
        "template it was designed from), keeping its other layers, tilesets and "
        "properties; in the map's own format.",
    ),
) -> None:
    """Export levels for a game engine: Tiled maps with their tileset image beside them."""
    from designer.ops import exports

    written = exports.export_tiled(
        source, output_file=output_file, out=out, cell=cell, force=force, into=into
    )
    world = next((path for path in written.paths if str(path).endswith(".world")), None)
    if world is not None:  # a cave's: a map per room and the world
        maps = [path for path in written.paths if str(path).endswith((".tmj", ".tmx", ".json"))]
        copied = f" (copies of {into}'s maps)" if into else ""
        note(f"wrote {len(maps)} room maps and the world {world}{copied} to {out}")
        return
    if into is not None:
        note(
            f"wrote {output_file} (the {'room' if written.rooms else 'level'} in a copy of {into})"
        )
        return
    maps, images = written.paths[: written.levels], written.paths[written.levels :]
    note(
        f"wrote {len(maps)} map{'s' if len(maps) > 1 else ''} and {' and '.join(map(str, images))}"
    )


@app.command(
    rich_help_panel=EXPORT,
    epilog=examples("designer play level.json -o level.html", "designer play pack -o pack.html"),
)
def play(
    source: str = typer.Argument(..., metavar="LEVEL|DIR", help=LEVELS_HELP),
    output_file: str = typer.Option(..., "-o", "--output", metavar="FILE.html", help="The page."),
    hint_cost: int = typer.Option(
        0,
        "--hint-cost",
        metavar="N",
        help="Stars each hint of an attempt takes off (0 to 3; default 0: hints are free).",
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing page."),
) -> None:
    """Write a self-contained HTML page to play a level or a pack, offline."""
    from designer.ops import exports

    written = exports.write_play_page(source, output_file, force=force, hint_cost=hint_cost)
    note(f"wrote {output_file} ({written.holding()})")


class GameFormat(str, Enum):
    glissade = "glissade"


class Coins(str, Enum):
    coins = "coins"
    items = "items"
    ice = "ice"


@app.command(
    "import",
    rich_help_panel=EXPORT,
    epilog=examples(
        "designer import levels.json --out glissade",
        "designer import levels.json --out glissade --coins ice",
    ),
)
def import_levels(
    source: str = typer.Argument(
        ..., metavar="FILE", help="A game's levels: glissade's levels.json."
    ),
    out: str = typer.Option(
        ..., "--out", metavar="DIR", help="The folder to write one JSON level per level into."
    ),
    game: GameFormat = typer.Option(
        GameFormat.glissade,
        "--from",
        case_sensitive=False,
        help="The game the file is from: glissade (the default and, today, the only one).",
    ),
    coins: Coins = typer.Option(
        Coins.coins,
        "--coins",
        case_sensitive=False,
        metavar="coins|items|ice",
        help="glissade's coins as coins (the default: the exit never waits for them, and the "
        "par is the full clear's), as items the exit waits for (at most 8), or as ice.",
    ),
    force: bool = typer.Option(False, "--force", help="Overwrite level files that exist."),
) -> None:
    """Read a game's levels, solve each, and write them as the designer's level files."""
    from designer.cli.shell import echo
    from designer.ops import imports

    found = imports.read_glissade(source, coins.value)
    imports.write_glissade(found, out, force=force)
    for one in found:
        coins_note = (
            f", {len(one.source.coins)} coins as {one.source.coins_as}" if one.source.coins else ""
        )
        shorter = f" ({one.moves})" if one.verdict.startswith("shorter than its par") else ""
        figure = "full clear" if one.full is not None else "min stops"
        echo(
            f"{one.name}: {figure} {one.stops if one.stops is not None else '-'}, par "
            f"{one.par if one.par is not None else '-'}: {one.verdict}{shorter}{coins_note}"
        )
    note(f"wrote {len(found)} levels to {out}")
