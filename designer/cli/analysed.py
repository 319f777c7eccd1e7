"""What ``analyze`` prints of each kind of puzzle (``ANALYSED``, by its kind's name): a level's
report with its coins, player and structure, a room's routes, a cave's way and rooms; or the
analysis object as JSON."""

from __future__ import annotations

import json

from designer.cli.shell import echo
from designer.cli.solved import full_words


def print_level(analysed, as_json: bool) -> None:
    """A level's report, its coins', player's and structure's lines under its head."""
    from designer.export.report import coin_lines, player_lines, report

    if as_json:
        echo(json.dumps(analysed.to_dict()))
        return
    text = report(analysed.level, analysed.analysis)
    extra = coin_lines(analysed.level, analysed.coins) if analysed.coins is not None else []
    if analysed.player is not None or analysed.shape is not None:
        extra += player_lines(analysed.player, analysed.shape)
    extra += [f"{what}: {why}" for what, why in analysed.skipped]
    if extra:
        head, _, rest = text.partition("\n\n")
        text = "\n".join([head, *extra]) + "\n\n" + rest
    echo(text)


def print_room(analysed, as_json: bool) -> None:
    """A room's routes, each route's full clear under the head."""
    from designer.export.report import room_report

    if as_json:
        echo(json.dumps(analysed.to_dict()))
        return
    fulls = analysed.full or {}
    head, _, rows = room_report(analysed.analysis).partition("\n\n")
    echo(
        "\n".join([head, *(full_words(analysed.room, full, name) for name, full in fulls.items())])
        + "\n\n"
        + rows
    )


def print_cave(analysed, as_json: bool) -> None:
    """A cave's report, what the model's player costs on it, and its full clear."""
    from designer.caves.cave_analysis import room_cells
    from designer.export.report import cave_report, player_lines

    if as_json:
        echo(json.dumps(analysed.to_dict()))
        return
    where = room_cells(analysed.cave)
    extra = player_lines(analysed.player, where=where) if analysed.player is not None else []
    if analysed.full is not None:
        extra.append(full_words(analysed.cave, analysed.full))
    echo("\n".join([cave_report(analysed.analysis), *extra]))


#: Each kind's printer, by its name (``designer.ops.kinds``).
ANALYSED = {"level": print_level, "room": print_room, "cave": print_cave}
